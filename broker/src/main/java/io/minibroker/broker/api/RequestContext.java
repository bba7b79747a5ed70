package io.minibroker.broker.api;

import io.minibroker.broker.security.SaslSession;

import java.net.SocketAddress;

/**
 * Where a request came from: the listener it arrived on (Metadata answers with that listener's addresses), and,
 * on a {@code SASL_PLAINTEXT} listener, its connection's authentication (null elsewhere).
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl) {

    /** A request on a listener without authentication. */
    public RequestContext(String listenerName, SocketAddress clientAddress) {
        this(listenerName, clientAddress, null);
    }
}
