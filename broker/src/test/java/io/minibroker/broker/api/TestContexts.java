package io.minibroker.broker.api;

import io.minibroker.broker.security.KafkaPrincipal;

import java.net.SocketAddress;
import java.util.concurrent.Executor;

/**
 * The request contexts of handler tests, made outside a connection and before any authorization: no SASL session,
 * every right on every topic. Where nothing says otherwise a handler goes on on the thread it is on, as no event
 * loop is there to go back to.
 */
public final class TestContexts {
    private static final Executor IN_PLACE = Runnable::run;

    private TestContexts() {
    }

    /** A request on {@code listenerName}, from no address in particular, without TLS. */
    public static RequestContext on(String listenerName) {
        return new RequestContext(listenerName, null, null, null, TopicRights.ALL, IN_PLACE,
                HandlerTime.NOT_COUNTED);
    }

    /** A request on a TLS listener from {@code client}, whose certificate names {@code principal}. */
    public static RequestContext withTlsPrincipal(String listenerName, SocketAddress client, KafkaPrincipal principal) {
        return new RequestContext(listenerName, client, null, principal, TopicRights.ALL, IN_PLACE,
                HandlerTime.NOT_COUNTED);
    }

    /** A request on the PLAINTEXT listener from {@code client}, whose connection's event loop is {@code eventLoop}. */
    public static RequestContext onEventLoop(SocketAddress client, Executor eventLoop) {
        return new RequestContext("PLAINTEXT", client, null, null, TopicRights.ALL, eventLoop,
                HandlerTime.NOT_COUNTED);
    }
}
