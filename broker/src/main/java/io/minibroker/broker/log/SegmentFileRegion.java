package io.minibroker.broker.log;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A Netty file region over part of a segment, sent with {@code sendfile} where the transport can. Netty's
 * {@link DefaultFileRegion} closes its channel when released; a segment's channel is shared by every
 * reader and the writer, so releasing this region leaves it open.
 */
final class SegmentFileRegion extends DefaultFileRegion {
    SegmentFileRegion(FileChannel channel, long position, long length) {
        super(channel, position, length);
    }

    @Override
    protected void deallocate() {
        // The segment owns the channel and closes it when the segment is closed or deleted.
    }
}
