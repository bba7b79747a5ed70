package io.minibroker.broker.api;

import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SaslSession;

import java.net.SocketAddress;

/**
 * Where a request came from: the listener it arrived on (Metadata answers with that listener's addresses); on a
 * SASL listener, its connection's authentication (null elsewhere); on an SSL listener, the principal its client
 * certificate names (null elsewhere, or ANONYMOUS when the client sent none); what the principal may do with topics
 * the request does not name ({@link TopicRights}, everything unless the authorizer's checks set it).
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                             KafkaPrincipal tlsPrincipal, TopicRights topicRights) {

    /** A request on a listener without authentication. */
    public RequestContext(String listenerName, SocketAddress clientAddress) {
        this(listenerName, clientAddress, null, null);
    }

    /** A request on a listener without TLS. */
    public RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl) {
        this(listenerName, clientAddress, sasl, null);
    }

    /** A request as it arrives, before any authorization: every right on every topic. */
    public RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                          KafkaPrincipal tlsPrincipal) {
        this(listenerName, clientAddress, sasl, tlsPrincipal, TopicRights.ALL);
    }

    /** This context, with the rights the authorizer gives its principal. */
    public RequestContext withTopicRights(TopicRights rights) {
        return new RequestContext(listenerName, clientAddress, sasl, tlsPrincipal, rights);
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
