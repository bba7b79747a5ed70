package io.minibroker.broker.log;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A segment's log file channel, shared by the segment and the reads it hands out, each holding a reference;
 * the channel closes when the last one lets go. Retention can thus delete a segment while a fetch response is
 * still sending bytes chosen from it: the file is unlinked at once, but stays open, and readable whole, until
 * that response's file region is released.
 */
final class SharedFileChannel {

    private final FileChannel channel;
    /** Starts with the segment's own reference, given back when the segment is closed or deleted. */
    private final AtomicInteger references = new AtomicInteger(1);

    SharedFileChannel(FileChannel channel) {
        this.channel = channel;
    }

    FileChannel channel() {
        return channel;
    }

    /**
     * Appends {@code length} bytes of the file from {@code position} to {@code out}, with positioned reads (one,
     * straight into the memory of a direct buffer).
     *
     * @throws IOException if the file ends first: it was truncated after the bytes were chosen
     */
    void readInto(ByteBuf out, long position, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int read = out.writeBytes(channel, position + done, length - done);
            if (read < 0) {
                throw new IOException("the segment file ended " + (length - done) + " bytes early");
            }
            done += read;
        }
    }

    /** Takes a reference, unless the channel is already closed: its segment is gone. */
    boolean tryRetain() {
        while (true) {
            int count = references.get();
            if (count == 0) {
                return false;
            }
            if (references.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** Gives a reference back, closing the channel with the last one. */
    void release() throws IOException {
        int count = references.decrementAndGet();
        if (count < 0) {
            throw new IllegalStateException("segment channel released more often than retained");
        }
        if (count == 0) {
            channel.close();
        }
    }
}
