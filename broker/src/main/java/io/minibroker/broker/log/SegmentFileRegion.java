package io.minibroker.broker.log;

import io.minibroker.protocol.schema.RecordsPayload;
import io.netty.buffer.ByteBuf;
import io.netty.channel.DefaultFileRegion;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Netty file region over part of a segment, sent with {@code sendfile} where the transport can (or read into a
 * buffer by a connection that sends it copied), and the records payload of a fetch response. It holds a reference to
 * the segment's channel: releasing the region (as writing it does) gives that back instead of closing the channel as
 * Netty's {@link DefaultFileRegion} would, so the segment, or the last reader of a deleted one, closes it.
 */
public final class SegmentFileRegion extends DefaultFileRegion implements RecordsPayload {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentFileRegion.class);

    private final SharedFileChannel file;

    /** Takes over a reference the caller holds on {@code file}. */
    SegmentFileRegion(SharedFileChannel file, long position, int length) {
        super(file.channel(), position, length);
        this.file = file;
    }

    @Override
    public int sizeInBytes() {
        return (int) count();
    }

    /**
     * Appends the bytes not yet transferred to {@code out}: a positioned read straight into the buffer, where
     * {@link #transferTo} into a buffer would go through the JDK's {@code FileChannel.transferTo} (the file's size
     * asked, a read into a temporary buffer, a copy).
     *
     * @throws IOException if the file now ends before the region does: it was truncated since the read, and, as
     *                     when {@code sendfile} finds it short, the answer cannot be sent
     */
    public void readUnsentInto(ByteBuf out) throws IOException {
        file.readInto(out, position() + transferred(), (int) (count() - transferred()));
    }

    @Override
    protected void deallocate() {
        try {
            file.release();
        } catch (IOException e) { // released on an event loop, where nobody can act on it
            LOG.warn("Cannot close the file of a deleted segment", e);
        }
    }
}
