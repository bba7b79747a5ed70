package io.minibroker.broker.network;

import io.netty.channel.DefaultMessageSizeEstimator;
import io.netty.channel.FileRegion;
import io.netty.channel.MessageSizeEstimator;

/**
 * Sizes outbound messages for the channel's write watermarks, counting a file region's bytes, which Netty's
 * default estimator counts as none. Fetched records go out as file regions, so without this a client that
 * stops reading its fetch responses would never make its connection unwritable and pause reading
 * ({@link RequestHandler}'s backpressure); with it, they weigh what they did as heap buffers.
 */
final class SendfileAwareSizeEstimator implements MessageSizeEstimator {

    static final SendfileAwareSizeEstimator INSTANCE = new SendfileAwareSizeEstimator();

    private static final Handle HANDLE = new Handle() {
        private final Handle buffers = DefaultMessageSizeEstimator.DEFAULT.newHandle();

        @Override
        public int size(Object message) {
            if (message instanceof FileRegion) {
                return (int) Math.min(((FileRegion) message).count(), Integer.MAX_VALUE);
            }
            return buffers.size(message);
        }
    };

    private SendfileAwareSizeEstimator() {
    }

    @Override
    public Handle newHandle() {
        return HANDLE;
    }
}
