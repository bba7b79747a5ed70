package io.minibroker.protocol.schema;

import io.netty.util.ReferenceCounted;

/**
 * Records that an encoded message carries without holding their bytes: a records field may hold one instead
 * of a {@code ByteBuf}. The encoder writes only its length prefix and leaves the payload as a piece of its own
 * between the encoded bytes ({@link Splices}); the transport then writes the payload itself, so it must be a
 * message the transport can send as it is (for Netty, a {@code FileRegion}). What the bytes are and where they
 * live is the implementor's business; the protocol only needs their size.
 *
 * <p>Reference counted like a buffer: whoever holds the message (and then the encoded pieces) owns one
 * reference, and passes it on or releases it.
 */
public interface RecordsPayload extends ReferenceCounted {

    /** The bytes the payload will put on the wire. */
    int sizeInBytes();
}
