package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.security.ForwardedPrincipal;
import io.minibroker.broker.security.KafkaPrincipalSerde;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.header.ResponseHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.EnvelopeRequestView;
import io.minibroker.protocol.message.view.EnvelopeResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Envelope (KIP-590), on the controller: a request a broker forwards for a client (CreateTopics, an ACL or quota
 * change, ...) comes inside one with the client's principal and address, and is handed to the controller's handler
 * of its API as that client's, as Kafka's ControllerApis.handleEnvelopeRequest does; its answer, header and body,
 * goes back inside the EnvelopeResponse. The envelope itself is a broker's (CLUSTER_ACTION, checked with the
 * controller's other broker APIs when there is an authorizer); the request inside is authorized again, with the
 * client's principal and address, by the check that wraps its API's handler in {@code handlers}, as Kafka's
 * controller does whatever the forwarding broker checked: the answer is the controller's, under the cluster's ACLs
 * as it has them.
 *
 * <p>Refused, with the envelope's error: a principal that cannot be read (PRINCIPAL_DESERIALIZATION_FAILURE), a
 * request that cannot be read, an Envelope inside one, or an API or version the controller does not serve
 * (INVALID_REQUEST, UNSUPPORTED_VERSION).
 */
final class EnvelopeHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeHandler.class);

    private final Map<ApiKey, SupportedApis.Entry> handlers;

    /**
     * @param handlers the controller's table as it will be served: a view, read at each request, so that it holds
     *                 the handlers as the authorizer wraps them once the table is built
     */
    EnvelopeHandler(Map<ApiKey, SupportedApis.Entry> handlers) {
        this.handlers = handlers;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        EnvelopeRequestView envelope = new EnvelopeRequestView(request.body());
        ForwardedPrincipal principal;
        try {
            principal = KafkaPrincipalSerde.deserialize(envelope.requestPrincipal() == null ? new byte[0]
                    : envelope.requestPrincipal());
        } catch (ProtocolException | IndexOutOfBoundsException e) {
            return refused(Errors.PRINCIPAL_DESERIALIZATION_FAILURE, "its principal", e);
        }
        Request inner;
        try {
            inner = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(envelope.requestData()));
        } catch (ProtocolException e) {
            return refused(e.error() == Errors.UNSUPPORTED_VERSION ? e.error() : Errors.INVALID_REQUEST,
                    "the request inside", e);
        }
        SupportedApis.Entry entry = handlers.get(inner.api());
        if (inner.api() == ApiKey.ENVELOPE || entry == null) {
            return refused(Errors.INVALID_REQUEST, inner.api() + " inside", null);
        }
        if (!entry.accepts(inner.version())) {
            return refused(Errors.UNSUPPORTED_VERSION, inner.api() + " v" + inner.version() + " inside", null);
        }
        RequestContext client = RequestContext.forwarded(context, principal, clientAddress(envelope));
        return entry.handler().handle(client, inner).thenApply(body -> new EnvelopeResponseView()
                .responseData(responseData(inner, body)).errorCode(Errors.NONE.code()).struct());
    }

    private static CompletionStage<Struct> refused(Errors error, String what, Exception cause) {
        LOG.info("Refusing a forwarded request: {} {}", what, cause == null ? "" : cause.getMessage());
        return CompletableFuture.completedFuture(new EnvelopeResponseView().responseData(null)
                .errorCode(error.code()).struct());
    }

    /** The client's address as the broker sent it (port unknown: 0), or null if it sent none that reads. */
    private static InetSocketAddress clientAddress(EnvelopeRequestView envelope) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(envelope.clientHostAddress()), 0);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The inner answer as it would go to the client, header and body, without a frame's size prefix. */
    private static byte[] responseData(Request inner, Struct body) {
        ByteBuf out = Unpooled.buffer();
        new ResponseHeader(inner.header().correlationId())
                .write(out, ResponseHeader.headerVersion(inner.api(), inner.version()));
        inner.api().response().write(out, body, inner.version());
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }
}
