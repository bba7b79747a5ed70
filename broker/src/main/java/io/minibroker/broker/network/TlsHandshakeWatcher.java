package io.minibroker.broker.network;

import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SslEngineFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;

/**
 * Watches a TLS connection's handshake: when it succeeds, names the connection's principal from the client's
 * certificate (before any request can be read, since none arrives before the handshake ends); when it fails or
 * times out, logs why (SslHandler closes the connection). A certificate no {@code ssl.principal.mapping.rules}
 * rule maps closes the connection, as Kafka fails its authentication.
 *
 * <p>It tells the listener's metrics what Kafka's selector counts: a handshake that succeeded, whatever its
 * certificate maps to (Kafka's channel is ready, and counted, at the handshake's end; it builds the principal only at
 * the first request); one that failed in TLS itself (Kafka's SslAuthenticationException: an SSLException, or bytes
 * that are no TLS record). Not a peer that closed or reset the connection during the handshake (an IOException to
 * Kafka, counted nowhere), nor one that did not finish it within {@code tls.handshake.timeout.ms}, a bound Kafka does
 * not have (its idle connections are closed after {@code connections.max.idle.ms}, counted nowhere either).
 */
final class TlsHandshakeWatcher extends ChannelInboundHandlerAdapter {

    /** The connection's principal from TLS, set once its handshake succeeded. */
    static final AttributeKey<KafkaPrincipal> PRINCIPAL = AttributeKey.valueOf("minibroker.tls.principal");

    private static final Logger LOG = LoggerFactory.getLogger(TlsHandshakeWatcher.class);

    private final SslEngineFactory tls;
    /** Told of a handshake that succeeded. */
    private final Runnable succeeded;
    /** Told of a handshake that failed in TLS. */
    private final Runnable failed;

    TlsHandshakeWatcher(SslEngineFactory tls, Runnable succeeded, Runnable failed) {
        this.tls = tls;
        this.succeeded = succeeded;
        this.failed = failed;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                succeeded.run();
                SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                try {
                    ctx.channel().attr(PRINCIPAL).set(tls.principalOf(ssl.engine().getSession()));
                } catch (IllegalArgumentException e) {
                    LOG.warn("Closing connection from {}: its certificate maps to no principal ({})",
                            ctx.channel().remoteAddress(), e.getMessage());
                    ctx.close();
                    return;
                }
            } else if (done.cause() instanceof SslHandshakeTimeoutException) {
                LOG.warn("Closing connection from {}: it did not finish its TLS handshake in time",
                        ctx.channel().remoteAddress());
            } else {
                LOG.warn("Closing connection from {}: TLS handshake failed ({})", ctx.channel().remoteAddress(),
                        done.cause().toString());
                if (failedInTls(done.cause())) {
                    failed.run();
                }
            }
        }
        super.userEventTriggered(ctx, event);
    }

    /**
     * Whether the handshake failed in TLS, as Kafka's SslTransportLayer fails an authentication: an SSLException
     * (the timeout is one, but is told apart above), or bytes that are not a TLS record, which Kafka's SSLEngine
     * refuses with one; not the peer closing the connection (Netty's ClosedChannelException) or any other I/O error.
     */
    private static boolean failedInTls(Throwable cause) {
        return cause instanceof SSLException || cause instanceof NotSslRecordException;
    }

    /**
     * A failed handshake also raises its cause here; the event above has logged it and SslHandler closes the
     * connection, so it is not passed on to be logged a second time.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl != null && !ssl.handshakeFuture().isSuccess()) {
            ctx.close();
            return;
        }
        super.exceptionCaught(ctx, cause);
    }
}
