package io.minibroker.broker.network;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.security.SslEngineFactory;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The pipeline of one connection: on an SSL or SASL_SSL listener TLS first (its handshake bounded by
 * {@code tls.handshake.timeout.ms}, the client's certificate naming the connection's principal, fetched records
 * copied out of their files since TLS cannot send them with {@code sendfile}); then idle watch, bytes to frames,
 * frames to requests and responses (on a SASL listener, after the connection authenticated); and write watermarks
 * that count fetched records sent from files.
 */
public final class ChannelSetup extends ChannelInitializer<SocketChannel> {

    private final SupportedApis apis;
    private final String listenerName;
    private final int maxFrameBytes;
    private final long idleMs;
    private final NetworkMetrics metrics;
    /** A new connection's authentication, on a SASL listener; null on a PLAINTEXT or SSL one. */
    private final Supplier<SaslSession> saslSessions;
    /** The listener's TLS on an SSL or SASL_SSL listener; null otherwise. */
    private final SslEngineFactory tls;
    private final long tlsHandshakeTimeoutMs;
    /** A test's controls, on a client listener; null on a controller's. */
    private final BrokerControls controls;

    public ChannelSetup(SupportedApis apis, String listenerName, int maxFrameBytes, long idleMs,
                        NetworkMetrics metrics, Supplier<SaslSession> saslSessions, SslEngineFactory tls,
                        long tlsHandshakeTimeoutMs, BrokerControls controls) {
        this.apis = apis;
        this.listenerName = listenerName;
        this.maxFrameBytes = maxFrameBytes;
        this.idleMs = idleMs;
        this.metrics = metrics;
        this.saslSessions = saslSessions;
        this.tls = tls;
        this.tlsHandshakeTimeoutMs = tlsHandshakeTimeoutMs;
        this.controls = controls;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.config().setMessageSizeEstimator(SendfileAwareSizeEstimator.INSTANCE);
        SaslSession sasl = saslSessions == null ? null : saslSessions.get();
        FrameDecoder frames = sasl == null ? new FrameDecoder(maxFrameBytes)
                : new FrameDecoder(() -> sasl.isAuthenticated() ? maxFrameBytes
                        : Math.min(maxFrameBytes, sasl.limits().maxReceiveBytes()));
        if (tls != null) {
            SslHandler ssl = new SslHandler(tls.newServerEngine());
            ssl.setHandshakeTimeoutMillis(tlsHandshakeTimeoutMs);
            channel.pipeline()
                    .addLast("ssl", ssl)
                    .addLast("tls-handshake", new TlsHandshakeWatcher(tls))
                    .addLast("copy-file-regions", new FileRegionCopier());
        }
        channel.pipeline()
                .addLast("idle", new IdleStateHandler(0, 0, idleMs, TimeUnit.MILLISECONDS))
                .addLast("frame", frames)
                .addLast("request", new RequestHandler(apis, listenerName, metrics, sasl, controls));
    }
}
