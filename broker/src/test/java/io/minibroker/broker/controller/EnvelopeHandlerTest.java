package io.minibroker.broker.controller;

import io.minibroker.broker.api.HandlerTime;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.KafkaPrincipalSerde;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.EnvelopeRequestView;
import io.minibroker.protocol.message.view.EnvelopeResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's Envelope handler: the request inside goes to its API's handler as the client's (its principal,
 * address and header), and its answer comes back inside the EnvelopeResponse with the client's correlation id;
 * a principal that does not read, an API the controller does not serve and an Envelope inside one are refused with
 * the envelope's error and no response data, as Kafka's ControllerApis refuses them.
 */
class EnvelopeHandlerTest {

    private static final short CREATE_TOPICS_V7 = 7;
    private static final RequestContext BROKER = new RequestContext("CONTROLLER", null, null,
            KafkaPrincipal.user("broker"), TopicRights.ALL, Runnable::run, HandlerTime.NOT_COUNTED);

    private final AtomicReference<RequestContext> seenContext = new AtomicReference<>();
    private final AtomicReference<Request> seenRequest = new AtomicReference<>();
    private final EnvelopeHandler handler = new EnvelopeHandler(new SupportedApis()
            .add(ApiKey.CREATE_TOPICS, (context, request) -> {
                seenContext.set(context);
                seenRequest.set(request);
                return CompletableFuture.completedFuture(new CreateTopicsResponseView().throttleTimeMs(7).struct());
            }).entries());

    private static byte[] innerRequest(ApiKey api, short version, Struct body) {
        byte[] frame = MessageCodec.encodeRequestToArray(new RequestHeader(api.id(), version, 42, "app"), body);
        return Arrays.copyOfRange(frame, Frames.SIZE_PREFIX_BYTES, frame.length);
    }

    private EnvelopeResponseView send(byte[] requestData, byte[] principal) throws Exception {
        return send(handler, requestData, principal);
    }

    private static EnvelopeResponseView send(EnvelopeHandler to, byte[] requestData, byte[] principal)
            throws Exception {
        Struct envelope = new EnvelopeRequestView().requestData(requestData).requestPrincipal(principal)
                .clientHostAddress(new byte[]{10, 0, 0, 7}).struct();
        return new EnvelopeResponseView(to.handle(BROKER, new Request(new RequestHeader(ApiKey.ENVELOPE.id(),
                (short) 0, 1, "broker-1"), ApiKey.ENVELOPE, envelope)).toCompletableFuture().get());
    }

    private static byte[] createTopics() {
        return innerRequest(ApiKey.CREATE_TOPICS, CREATE_TOPICS_V7, new CreateTopicsRequestView().timeoutMs(1000)
                .struct());
    }

    @Test
    void theRequestInsideIsServedAsTheClientsAndAnsweredInside() throws Exception {
        EnvelopeResponseView answer = send(createTopics(),
                KafkaPrincipalSerde.serialize(KafkaPrincipal.user("alice"), false));

        assertThat(answer.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(seenContext.get().principal()).isEqualTo(KafkaPrincipal.user("alice"));
        assertThat(((InetSocketAddress) seenContext.get().clientAddress()).getAddress().getHostAddress())
                .isEqualTo("10.0.0.7");
        assertThat(seenRequest.get().header().clientId()).isEqualTo("app");
        assertThat(seenRequest.get().version()).isEqualTo(CREATE_TOPICS_V7);
        Response inner = MessageCodec.decodeResponse(Unpooled.wrappedBuffer(answer.responseData()),
                ApiKey.CREATE_TOPICS, CREATE_TOPICS_V7);
        assertThat(inner.correlationId()).isEqualTo(42);
        assertThat(new CreateTopicsResponseView(inner.body()).throttleTimeMs()).isEqualTo(7);
    }

    /**
     * The table's handlers as the authorizer wraps them once the table is built, not as they were when the envelope's
     * handler was made: the request inside is checked again as its client's.
     */
    @Test
    void theRequestInsideGoesThroughTheCheckThatWrapsItsHandlerLater() throws Exception {
        SupportedApis table = new SupportedApis().add(ApiKey.CREATE_TOPICS, (context, request) -> {
            seenRequest.set(request);
            return CompletableFuture.completedFuture(new CreateTopicsResponseView().struct());
        });
        EnvelopeHandler envelopes = new EnvelopeHandler(table.entries());
        table.wrapHandlers((api, unchecked) -> (context, request) -> {
            seenContext.set(context);
            return CompletableFuture.completedFuture(new CreateTopicsResponseView().throttleTimeMs(13).struct());
        });

        EnvelopeResponseView answer = send(envelopes, createTopics(),
                KafkaPrincipalSerde.serialize(KafkaPrincipal.user("alice"), false));

        assertThat(seenContext.get().principal()).isEqualTo(KafkaPrincipal.user("alice"));
        assertThat(seenRequest.get()).as("the check answered it").isNull();
        assertThat(new CreateTopicsResponseView(MessageCodec.decodeResponse(Unpooled.wrappedBuffer(
                answer.responseData()), ApiKey.CREATE_TOPICS, CREATE_TOPICS_V7).body()).throttleTimeMs()).isEqualTo(13);
    }

    @Test
    void whatCannotBeServedIsRefusedWithTheEnvelopesError() throws Exception {
        byte[] alice = KafkaPrincipalSerde.serialize(KafkaPrincipal.user("alice"), false);
        EnvelopeResponseView badPrincipal = send(createTopics(), new byte[]{0, 1, 2});
        assertThat(badPrincipal.errorCode()).isEqualTo(Errors.PRINCIPAL_DESERIALIZATION_FAILURE.code());
        assertThat(badPrincipal.responseData()).isNull();
        assertThat(send(createTopics(), null).errorCode()).isEqualTo(Errors.PRINCIPAL_DESERIALIZATION_FAILURE.code());

        Struct nested = new EnvelopeRequestView().requestData(createTopics()).requestPrincipal(alice)
                .clientHostAddress(new byte[4]).struct();
        assertThat(send(innerRequest(ApiKey.ENVELOPE, (short) 0, nested), alice).errorCode())
                .isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(send(innerRequest(ApiKey.DELETE_TOPICS, (short) 6, ApiKey.DELETE_TOPICS.request().newMessage()),
                alice).errorCode()).as("not served here").isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(send(new byte[]{0, 19, 0}, alice).errorCode()).as("unreadable").isEqualTo(
                Errors.INVALID_REQUEST.code());
        assertThat(seenRequest.get()).as("none reached the handler").isNull();
    }
}
