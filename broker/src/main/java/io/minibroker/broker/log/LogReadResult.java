package io.minibroker.broker.log;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.FileRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;

/**
 * Where the bytes of a fetch are: a region of one segment file, to be sent as is. {@link #toFileRegion()}
 * gives the network layer a Netty file region for {@code sendfile}, without the bytes passing through the
 * heap; {@link #readInto} copies them into a buffer instead, for tests and paths that must look inside.
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

    /**
     * The region as a Netty {@link FileRegion} to write to a channel; releasing it (as writing does) leaves
     * the segment's file open.
     */
    public FileRegion toFileRegion() {
        if (isEmpty()) {
            throw new IllegalStateException("an empty read has no file region");
        }
        return new SegmentFileRegion(channel, position, length);
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
