package io.minibroker.broker.api;

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
 * waited for (another component's single thread), running at once when already there; the time the request spends
 * in its handler, which its client's {@code request_percentage} quota bounds.
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, SaslSession sasl,
                             KafkaPrincipal tlsPrincipal, TopicRights topicRights, Executor eventLoop,
                             HandlerTime handlerTime) {

    /**
     * The context of a request a broker forwarded in an Envelope, on the controller: the client's principal and
     * address as the envelope gives them (the principal where a connection's certificate would name it, no SASL
     * session), on the listener and event loop of the envelope's connection, its time the envelope's.
     */
    public static RequestContext forwarded(RequestContext envelope, KafkaPrincipal client, SocketAddress address) {
        return new RequestContext(envelope.listenerName(), address, null, client, TopicRights.ALL,
                envelope.eventLoop(), envelope.handlerTime());
    }

    /** This context, with the rights the authorizer gives its principal. */
    public RequestContext withTopicRights(TopicRights rights) {
        return new RequestContext(listenerName, clientAddress, sasl, tlsPrincipal, rights, eventLoop, handlerTime);
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
