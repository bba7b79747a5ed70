package io.minibroker.broker.log;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;

/**
 * Where the bytes of a fetch are: a region of one segment file, to be sent as is. The network layer wraps
 * it in a file region for {@code sendfile}; note that Netty's {@code DefaultFileRegion} closes its channel
 * when released, so it must be given a subclass whose {@code deallocate()} leaves the segment's channel
 * open. {@link #readInto} copies the bytes into a buffer instead, for tests and paths that must look inside.
 * Like Kafka's, the region may end with part of a batch when {@code maxBytes} cuts it; clients skip it.
 *
 * @param channel     the segment file; shared, never closed by the reader
 * @param position    the file position of the first batch
 * @param length      bytes from {@code position}; 0 when there is nothing to return
 * @param firstOffset the base offset of the first batch, -1 when empty
 */
public record LogReadResult(FileChannel channel, long position, int length, long firstOffset) {

    static final LogReadResult EMPTY = new LogReadResult(null, 0, 0, -1);

    public boolean isEmpty() {
        return length == 0;
    }

    /** The bytes, copied into a new buffer from {@code alloc} that the caller releases. */
    public ByteBuf readInto(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(length);
        try {
            while (out.writerIndex() < length) {
                int read = out.writeBytes(channel, position + out.writerIndex(), length - out.writerIndex());
                if (read < 0) {
                    throw new IOException("segment ended " + (length - out.writerIndex()) + " bytes early");
                }
            }
            return out;
        } catch (IOException e) {
            out.release();
            throw new UncheckedIOException(e);
        }
    }
}
