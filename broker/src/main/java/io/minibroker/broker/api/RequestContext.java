package io.minibroker.broker.api;

import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SaslSession;

import java.net.SocketAddress;
import java.util.function.Predicate;

/**
 * Where a request came from: the listener it arrived on (Metadata answers with that listener's addresses); on a
 * SASL listener, its connection's authentication (null elsewhere); on an SSL listener, the principal its client
 * certificate names (null elsewhere, or ANONYMOUS when the client sent none). {@code describableTopics} says which
 * topics the principal may describe, for the handlers that must leave out the others themselves (a KIP-848 member's
 * regular expression matches topics the request never names): every topic unless the authorizer's checks set it.
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                             KafkaPrincipal tlsPrincipal, Predicate<String> describableTopics) {

    private static final Predicate<String> EVERY_TOPIC = topic -> true;

    /** A request on a listener without authentication. */
    public RequestContext(String listenerName, SocketAddress clientAddress) {
        this(listenerName, clientAddress, null, null);
    }

    /** A request on a listener without TLS. */
    public RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl) {
        this(listenerName, clientAddress, sasl, null);
    }

    /** A request as it arrives, before any authorization: every topic describable. */
    public RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                          KafkaPrincipal tlsPrincipal) {
        this(listenerName, clientAddress, sasl, tlsPrincipal, EVERY_TOPIC);
    }

    /** This context, with the topics the authorizer lets its principal describe. */
    public RequestContext withDescribableTopics(Predicate<String> describable) {
        return new RequestContext(listenerName, clientAddress, sasl, tlsPrincipal, describable);
    }

    /**
     * Who sent the request, as Kafka's DefaultKafkaPrincipalBuilder names it: the SASL user on a SASL listener
     * (SASL_SSL too), else the client certificate's mapped name on an SSL listener, else User:ANONYMOUS.
     */
    public KafkaPrincipal principal() {
        if (sasl != null && sasl.isAuthenticated()) {
            return KafkaPrincipal.user(sasl.principal());
        }
        return tlsPrincipal != null ? tlsPrincipal : KafkaPrincipal.ANONYMOUS;
    }
}
