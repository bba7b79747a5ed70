package io.minibroker.broker.api;

import io.minibroker.broker.security.ForwardedPrincipal;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SaslSession;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.Executor;

/**
 * Where a request came from: the listener it arrived on (Metadata answers with that listener's addresses); on a
 * SASL listener, its connection's authentication (null elsewhere); on an SSL listener, the principal its client
 * certificate names (null elsewhere, or ANONYMOUS when the client sent none); what the principal may do with topics
 * the request does not name ({@link TopicRights}, everything unless the authorizer's checks set it); its
 * connection's event loop, where a handler goes on with work that must not stay on the thread that completed what it
 * waited for (another component's single thread), running at once when already there; for a request a broker
 * forwarded in an Envelope, the client it forwarded it for (null otherwise).
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                             KafkaPrincipal tlsPrincipal, TopicRights topicRights, Executor eventLoop,
                             ForwardedPrincipal forwardedFor) {

    /** The context of a request that came on its client's own connection. */
    public RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                          KafkaPrincipal tlsPrincipal, TopicRights topicRights, Executor eventLoop) {
        this(listenerName, clientAddress, sasl, tlsPrincipal, topicRights, eventLoop, null);
    }

    /**
     * The context of a request a broker forwarded in an Envelope, on the controller: the client's principal and
     * address as the envelope gives them (no SASL session, no certificate), on the listener and event loop of the
     * envelope's connection.
     */
    public static RequestContext forwarded(RequestContext envelope, ForwardedPrincipal client,
                                           SocketAddress address) {
        return new RequestContext(envelope.listenerName(), address, null, null, TopicRights.ALL,
                envelope.eventLoop(), client);
    }

    /** This context, with the rights the authorizer gives its principal. */
    public RequestContext withTopicRights(TopicRights rights) {
        return new RequestContext(listenerName, clientAddress, sasl, tlsPrincipal, rights, eventLoop, forwardedFor);
    }

    /** Whether the request came in an Envelope, forwarded by a broker for its client. */
    public boolean forwarded() {
        return forwardedFor != null;
    }

    /**
     * Whether the client signed in with a delegation token: on its own SASL connection, or as the forwarding broker
     * says in the Envelope.
     */
    public boolean tokenAuthenticated() {
        if (forwardedFor != null) {
            return forwardedFor.tokenAuthenticated();
        }
        return sasl != null && sasl.tokenAuthenticated();
    }

    /**
     * Who sent the request, as Kafka's DefaultKafkaPrincipalBuilder names it: the SASL user on a SASL listener
     * (SASL_SSL too), else the client certificate's mapped name on an SSL listener, else User:ANONYMOUS; for a
     * forwarded request, the client the broker forwarded it for.
     */
    public KafkaPrincipal principal() {
        if (forwardedFor != null) {
            return forwardedFor.principal();
        }
        if (sasl != null && sasl.principal() != null) { // authenticated, or re-authenticating as the same
            return KafkaPrincipal.user(sasl.principal());
        }
        return tlsPrincipal != null ? tlsPrincipal : KafkaPrincipal.ANONYMOUS;
    }

    /**
     * The client's host as a group member records it, Kafka's {@code clientHost}: the address without the port
     * ("/127.0.0.1", Kafka's InetAddress.toString()), so that a member reconnecting from another port is the same
     * host; empty when the address is unknown.
     */
    public String clientHost() {
        if (clientAddress instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().toString();
        }
        return clientAddress == null ? "" : clientAddress.toString();
    }
}
