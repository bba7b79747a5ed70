package io.minibroker.protocol.frame;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;

/**
 * Splits a byte stream into Kafka frames: each is a signed int32 size followed by that many bytes. The
 * size is validated before anything is waited for, so a peer cannot make the broker buffer gigabytes by
 * announcing them.
 */
public final class Frames {
    public static final int SIZE_PREFIX_BYTES = 4;

    private Frames() {
    }

    /**
     * Takes the next complete frame body off {@code in}, or returns null and consumes nothing when it has
     * not fully arrived yet. The returned slice is retained; the caller releases it.
     */
    public static ByteBuf readFrame(ByteBuf in, int maxFrameBytes) {
        if (in.readableBytes() < SIZE_PREFIX_BYTES) {
            return null;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0) {
            throw new ProtocolException(Errors.INVALID_REQUEST, "negative frame size " + size);
        }
        if (size > maxFrameBytes) {
            throw new ProtocolException(Errors.INVALID_REQUEST, "frame of " + size + " bytes exceeds the limit of " + maxFrameBytes);
        }
        if (in.readableBytes() < SIZE_PREFIX_BYTES + size) {
            return null;
        }
        in.skipBytes(SIZE_PREFIX_BYTES);
        return in.readRetainedSlice(size);
    }
}
