package io.minibroker.broker.network;

import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SslEngineFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a TLS connection's handshake: when it succeeds, names the connection's principal from the client's
 * certificate (before any request can be read, since none arrives before the handshake ends); when it fails or
 * times out, logs why (SslHandler closes the connection). A certificate no {@code ssl.principal.mapping.rules}
 * rule maps closes the connection, as Kafka fails its authentication.
 */
final class TlsHandshakeWatcher extends ChannelInboundHandlerAdapter {

    /** The connection's principal from TLS, set once its handshake succeeded. */
    static final AttributeKey<KafkaPrincipal> PRINCIPAL = AttributeKey.valueOf("minibroker.tls.principal");

    private static final Logger LOG = LoggerFactory.getLogger(TlsHandshakeWatcher.class);

    private final SslEngineFactory tls;
    /** Told of a handshake that succeeded and whose certificate maps to a principal. */
    private final Runnable authenticated;

    TlsHandshakeWatcher(SslEngineFactory tls, Runnable authenticated) {
        this.tls = tls;
        this.authenticated = authenticated;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                try {
                    ctx.channel().attr(PRINCIPAL).set(tls.principalOf(ssl.engine().getSession()));
                } catch (IllegalArgumentException e) {
                    LOG.warn("Closing connection from {}: its certificate maps to no principal ({})",
                            ctx.channel().remoteAddress(), e.getMessage());
                    ctx.close();
                    return;
                }
                authenticated.run();
            } else if (done.cause() instanceof SslHandshakeTimeoutException) {
                LOG.warn("Closing connection from {}: it did not finish its TLS handshake in time",
                        ctx.channel().remoteAddress());
            } else {
                LOG.warn("Closing connection from {}: TLS handshake failed ({})", ctx.channel().remoteAddress(),
                        done.cause().toString());
            }
        }
        super.userEventTriggered(ctx, event);
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
