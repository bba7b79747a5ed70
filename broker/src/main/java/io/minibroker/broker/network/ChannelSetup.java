package io.minibroker.broker.network;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one connection: idle watch, bytes to frames, frames to requests and responses; and write
 * watermarks that count fetched records sent from files.
 */
public final class ChannelSetup extends ChannelInitializer<SocketChannel> {

    private final SupportedApis apis;
    private final String listenerName;
    private final int maxFrameBytes;
    private final long idleMs;
    private final NetworkMetrics metrics;

    public ChannelSetup(SupportedApis apis, String listenerName, int maxFrameBytes, long idleMs,
                        NetworkMetrics metrics) {
        this.apis = apis;
        this.listenerName = listenerName;
        this.maxFrameBytes = maxFrameBytes;
        this.idleMs = idleMs;
        this.metrics = metrics;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.config().setMessageSizeEstimator(SendfileAwareSizeEstimator.INSTANCE);
        channel.pipeline()
                .addLast("idle", new IdleStateHandler(0, 0, idleMs, TimeUnit.MILLISECONDS))
                .addLast("frame", new FrameDecoder(maxFrameBytes))
                .addLast("request", new RequestHandler(apis, listenerName, metrics));
    }
}
