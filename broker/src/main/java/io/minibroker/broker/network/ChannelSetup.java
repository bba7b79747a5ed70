package io.minibroker.broker.network;

import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.quota.ClientQuotaEnforcement;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.security.SslEngineFactory;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The pipeline of one connection, once {@link ConnectionQuotas} admitted it (else it is closed with a log line):
 * first the {@link ReadGate} that pauses reading while the request budget is spent; on an SSL or SASL_SSL listener TLS first (its handshake bounded by
 * {@code tls.handshake.timeout.ms}, the client's certificate naming the connection's principal, fetched records
 * copied out of their files since TLS cannot send them with {@code sendfile}; on a plaintext one, only small sets of
 * fetched records, which a copy sends more cheaply than {@code sendfile}); then the flushes of one read's
 * responses made one, idle watch, bytes to frames,
 * frames to requests and responses (on a SASL listener, after the connection authenticated); and write watermarks
 * that count fetched records sent from files.
 */
public final class ChannelSetup extends ChannelInitializer<Channel> {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelSetup.class);

    private final SupportedApis apis;
    private final String listenerName;
    private final int maxFrameBytes;
    private final long idleMs;
    private final NetworkMetrics metrics;
    /** A new connection's authentication, on a SASL listener; null on a PLAINTEXT or SSL one. */
    private final Function<SaslSession.Outcomes, SaslSession> saslSessions;
    /** The listener's TLS on an SSL or SASL_SSL listener; null otherwise. */
    private final SslEngineFactory tls;
    private final long tlsHandshakeTimeoutMs;
    private final ConnectionLimits limits;
    /** A test's controls, on a client listener; null on a controller's. */
    private final BrokerControls controls;
    /** The client quotas' throttling, on a client listener; null on a controller's. */
    private final ClientQuotaEnforcement quotas;

    public ChannelSetup(SupportedApis apis, String listenerName, int maxFrameBytes, long idleMs,
                        NetworkMetrics metrics, Function<SaslSession.Outcomes, SaslSession> saslSessions,
                        SslEngineFactory tls,
                        long tlsHandshakeTimeoutMs, ConnectionLimits limits, BrokerControls controls,
                        ClientQuotaEnforcement quotas) {
        this.apis = apis;
        this.listenerName = listenerName;
        this.maxFrameBytes = maxFrameBytes;
        this.idleMs = idleMs;
        this.metrics = metrics;
        this.saslSessions = saslSessions;
        this.tls = tls;
        this.tlsHandshakeTimeoutMs = tlsHandshakeTimeoutMs;
        this.limits = limits;
        this.controls = controls;
        this.quotas = quotas;
    }

    @Override
    protected void initChannel(Channel channel) {
        channel.config().setMessageSizeEstimator(SendfileAwareSizeEstimator.INSTANCE);
        SaslSession sasl = saslSessions == null ? null : saslSessions.apply(metrics);
        // A connection of a TCP listener: typed as any channel so that a test can run the pipeline on an embedded one.
        InetAddress peer = ((InetSocketAddress) channel.remoteAddress()).getAddress();
        String refusedBy = limits.quotas().tryAccept(listenerName, peer, sasl != null);
        if (refusedBy != null) {
            LOG.warn("Refusing connection from {} on {}: {} reached", channel.remoteAddress(), listenerName, refusedBy);
            channel.close();
            return;
        }
        Authentication authentication = new Authentication(sasl);
        channel.closeFuture().addListener(closed -> limits.quotas().closed(listenerName, peer,
                !authentication.counted));
        addHandlers(channel.pipeline(), sasl, authentication);
    }

    /** The handlers of an admitted connection, in order ({@code sasl} is null on a listener without SASL). */
    private void addHandlers(ChannelPipeline pipeline, SaslSession sasl, Authentication authentication) {
        ReadGate gate = new ReadGate();
        FrameDecoder frames = new FrameDecoder(() -> authentication.saslStepsUnderWay()
                ? Math.min(maxFrameBytes, sasl.limits().maxReceiveBytes()) : maxFrameBytes,
                authentication::isAuthenticated,
                limits.requestBytes(), limits.unauthenticatedRequestBytes(), gate,
                sasl == null ? () -> { } : sasl::receiveSizeRefused);
        pipeline.addLast("read-gate", gate);
        if (tls != null) {
            SslHandler ssl = new SslHandler(tls.newServerEngine());
            ssl.setHandshakeTimeoutMillis(tlsHandshakeTimeoutMs);
            pipeline
                    .addLast("ssl", ssl)
                    // On an SSL listener the handshake is the authentication, which Kafka's selector counts as one
                    // whose client cannot re-authenticate; on SASL_SSL the SASL exchange is. A failed handshake is a
                    // failed authentication on both, as Kafka's SslAuthenticationException.
                    .addLast("tls-handshake", new TlsHandshakeWatcher(tls,
                            sasl == null ? () -> metrics.authenticated(false) : () -> { },
                            metrics::authenticationFailed))
                    .addLast("copy-file-regions", FileRegionCopier.all());
        } else {
            pipeline.addLast("copy-file-regions", FileRegionCopier.small());
        }
        pipeline
                // Responses finished while a read is being handled (every acks=1 produce, every fetch with data
                // at hand) leave with one flush, one write call, at the end of the read instead of one each
                // (at most 256 held back); one finished later (a parked request, the disk thread's) is flushed
                // at once.
                .addLast("flush", new FlushConsolidationHandler())
                .addLast("idle", new IdleStateHandler(0, 0, idleMs, TimeUnit.MILLISECONDS))
                .addLast("frame", frames)
                .addLast("request", new RequestHandler(apis, listenerName, metrics, sasl, controls, quotas,
                        limits.requestBytes()));
    }

    /** Tells the quotas once, the first time it is asked after the connection authenticated. */
    private final class Authentication {
        private final SaslSession sasl;
        /** Counted as authenticated: a connection of a listener without SASL from the start. */
        private boolean counted;

        Authentication(SaslSession sasl) {
            this.sasl = sasl;
            this.counted = sasl == null;
        }

        boolean isAuthenticated() {
            if (!counted && sasl.isAuthenticated()) {
                counted = true;
                limits.quotas().authenticated();
            }
            return counted;
        }

        /**
         * Whether the SASL steps are under way, before the first authentication or during a re-authentication
         * (KIP-368) once its SaslHandshake came: Kafka's authenticator then reads the frames itself, each bounded by
         * {@code sasl.server.max.receive.size}.
         */
        boolean saslStepsUnderWay() {
            boolean authenticated = isAuthenticated();
            return sasl != null && (!authenticated || !sasl.isAuthenticated());
        }
    }
}
