package io.minibroker.broker.network;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.security.SaslSession;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The pipeline of one connection: idle watch, bytes to frames, frames to requests and responses (on a
 * SASL_PLAINTEXT listener, after the connection authenticated); and write watermarks that count fetched records
 * sent from files.
 */
public final class ChannelSetup extends ChannelInitializer<SocketChannel> {

    private final SupportedApis apis;
    private final String listenerName;
    private final int maxFrameBytes;
    private final long idleMs;
    private final NetworkMetrics metrics;
    /** A new connection's authentication, on a SASL_PLAINTEXT listener; null on a PLAINTEXT one. */
    private final Supplier<SaslSession> saslSessions;
    /** A test's controls, on a client listener; null on a controller's. */
    private final BrokerControls controls;

    public ChannelSetup(SupportedApis apis, String listenerName, int maxFrameBytes, long idleMs,
                        NetworkMetrics metrics, Supplier<SaslSession> saslSessions, BrokerControls controls) {
        this.apis = apis;
        this.listenerName = listenerName;
        this.maxFrameBytes = maxFrameBytes;
        this.idleMs = idleMs;
        this.metrics = metrics;
        this.saslSessions = saslSessions;
        this.controls = controls;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.config().setMessageSizeEstimator(SendfileAwareSizeEstimator.INSTANCE);
        SaslSession sasl = saslSessions == null ? null : saslSessions.get();
        FrameDecoder frames = sasl == null ? new FrameDecoder(maxFrameBytes)
                : new FrameDecoder(() -> sasl.isAuthenticated() ? maxFrameBytes
                        : Math.min(maxFrameBytes, sasl.limits().maxReceiveBytes()));
        channel.pipeline()
                .addLast("idle", new IdleStateHandler(0, 0, idleMs, TimeUnit.MILLISECONDS))
                .addLast("frame", frames)
                .addLast("request", new RequestHandler(apis, listenerName, metrics, sasl, controls));
    }
}
