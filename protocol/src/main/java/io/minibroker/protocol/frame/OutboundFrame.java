package io.minibroker.protocol.frame;

import io.netty.util.ReferenceCounted;
import java.util.List;

/**
 * An encoded frame as the pieces to write, in this order: buffers of the bytes the codec wrote and, between
 * them, the records payloads it left out (sent by the transport as they are). Without payloads, one buffer.
 * The frame owns one reference to each piece; writing a piece hands that reference to the transport.
 */
public final class OutboundFrame {

    private final List<ReferenceCounted> pieces;
    private final int sizeInBytes;

    public OutboundFrame(List<ReferenceCounted> pieces, int sizeInBytes) {
        this.pieces = List.copyOf(pieces);
        this.sizeInBytes = sizeInBytes;
    }

    public List<ReferenceCounted> pieces() {
        return pieces;
    }

    /** The bytes the frame puts on the wire, size prefix and payloads included. */
    public int sizeInBytes() {
        return sizeInBytes;
    }

    /** For a frame that will not be written. */
    public void release() {
        for (ReferenceCounted piece : pieces) {
            piece.release();
        }
    }
}
