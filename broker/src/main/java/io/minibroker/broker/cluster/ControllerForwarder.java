package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.KafkaPrincipalSerde;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.Response;
import io.minibroker.protocol.message.view.EnvelopeRequestView;
import io.minibroker.protocol.message.view.EnvelopeResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

/**
 * How a broker in a cluster has the controller make the changes only it may make (CreateTopics, DeleteTopics,
 * CreatePartitions, ElectLeaders, AlterConfigs, IncrementalAlterConfigs, CreateAcls, DeleteAcls,
 * AlterUserScramCredentials), as Kafka's brokers forward them: the request goes to
 * the controller as it came (same header, version and body) in an Envelope with the client's principal, and its
 * answer back to the client, after this broker has
 * fetched the new image, so that the client's next request here sees the change. The wait runs on
 * {@code forwarding}, never on an event loop. One connection carries them all, one at a time, in order.
 */
public final class ControllerForwarder {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerForwarder.class);
    /** Envelope's one version. */
    private static final short ENVELOPE_VERSION = 0;

    private final NodeChannel controller;
    private final MetadataFetcher metadata;
    private final Executor forwarding;

    public ControllerForwarder(NodeChannel controller, MetadataFetcher metadata, Executor forwarding) {
        this.controller = controller;
        this.metadata = metadata;
        this.forwarding = forwarding;
    }

    /**
     * A handler that forwards this API's requests, each in an Envelope (KIP-590) that carries the client's principal
     * and address, so that the controller acts as the client, as Kafka's brokers forward them. When the controller
     * does not answer the request, the client is answered what {@code failure} makes of the request with an error
     * (see {@link ForwardingFailure}), as Kafka's ForwardingManager answers: REQUEST_TIMED_OUT when the controller
     * cannot be reached, which clients retry; UNKNOWN_SERVER_ERROR when it refused the envelope; and when it refused
     * the envelope UNSUPPORTED_VERSION (it serves the API at no version the client's request has), no answer: the
     * client's connection is closed, for the client to learn the versions again, as Kafka's KafkaApis closes it.
     */
    public ApiHandler handlerFor(ApiKey api, BiFunction<Request, Errors, Struct> failure) {
        return (context, request) -> forwardAs(context, request)
                .exceptionally(thrown -> {
                    Throwable cause = thrown instanceof CompletionException ? thrown.getCause() : thrown;
                    if (cause instanceof EnvelopeRefused refused) {
                        LOG.info("The controller refused the envelope of {}: {}", api, refused.error);
                        if (refused.error == Errors.UNSUPPORTED_VERSION) {
                            throw new CloseConnection("the controller does not serve " + api + " v"
                                    + request.version());
                        }
                        return failure.apply(request, Errors.UNKNOWN_SERVER_ERROR);
                    }
                    LOG.warn("Could not forward {} to the controller: {}", api, cause.toString());
                    return failure.apply(request, Errors.REQUEST_TIMED_OUT);
                });
    }

    /** The controller's answer to an envelope that it did not open: its error, and no request's answer inside. */
    private static final class EnvelopeRefused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient Errors error;

        EnvelopeRefused(ApiKey api, Errors error) {
            super("the controller refused the envelope of " + api + ": " + error, null, false, false);
            this.error = error;
        }
    }

    /**
     * Sends {@code request} to the controller in an Envelope as {@code client}'s, and completes with the controller's
     * answer to it once this broker has the image that follows; completes exceptionally if the controller cannot be
     * reached or refuses the envelope. For a client's request, and for one this broker makes on a client's account
     * (a topic a Metadata request auto-creates).
     */
    public CompletableFuture<Struct> forwardAs(RequestContext client, Request request) {
        return forward(request.api(), request.version(), envelope(client, request));
    }

    /** The client's request, header and body as it sent them, in an Envelope with its principal and address. */
    private static Envelope envelope(RequestContext context, Request request) {
        byte[] frame = MessageCodec.encodeRequestToArray(request.header(), request.body());
        byte[] requestData = Arrays.copyOfRange(frame, Frames.SIZE_PREFIX_BYTES, frame.length);
        byte[] clientHost = context.clientAddress() instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getAddress() : new byte[0];
        return new Envelope(new EnvelopeRequestView().requestData(requestData)
                .requestPrincipal(KafkaPrincipalSerde.serialize(context.principal(), context.tokenAuthenticated()))
                .clientHostAddress(clientHost).struct(), request.header().correlationId());
    }

    /** An Envelope to send, and the correlation id of the request inside it, which its answer's inner header echoes. */
    private record Envelope(Struct request, int innerCorrelationId) {
    }

    /**
     * Sends a request to the controller and completes with its answer once this broker has the image that
     * follows it; completes exceptionally if the controller cannot be reached. For requests this broker makes on
     * its own account (the {@code __consumer_offsets} a FindCoordinator asks for).
     */
    public CompletableFuture<Struct> forward(ApiKey api, short version, Struct body) {
        return refreshedAfter(api, () -> sendResendingOnce(api, version, body));
    }

    /** Sends the envelope and completes with the answer inside it, once this broker has the image that follows. */
    private CompletableFuture<Struct> forward(ApiKey api, short version, Envelope envelope) {
        return refreshedAfter(api, () -> {
            EnvelopeResponseView answer = new EnvelopeResponseView(sendResendingOnce(ApiKey.ENVELOPE,
                    ENVELOPE_VERSION, envelope.request()));
            if (answer.errorCode() != Errors.NONE.code() || answer.responseData() == null) {
                // Not an IOException: the controller was reached, and a resend would be refused the same.
                throw new EnvelopeRefused(api, answer.errorCode() == Errors.NONE.code() ? Errors.UNKNOWN_SERVER_ERROR
                        : Errors.forCode(answer.errorCode()));
            }
            Response inner = MessageCodec.decodeResponse(Unpooled.wrappedBuffer(answer.responseData()), api, version);
            if (inner.correlationId() != envelope.innerCorrelationId()) {
                throw new IOException("the controller answered request " + inner.correlationId() + " in the envelope of "
                        + envelope.innerCorrelationId());
            }
            return inner.body();
        });
    }

    /** A request sent to the controller on {@code forwarding}, answered once this broker has fetched the image. */
    private CompletableFuture<Struct> refreshedAfter(ApiKey api, Exchange exchange) {
        return CompletableFuture.supplyAsync(() -> {
            Struct response;
            try {
                response = exchange.send();
            } catch (IOException e) {
                throw new CompletionException(new UncheckedIOException(e));
            }
            try {
                metadata.refresh();
            } catch (IOException e) {
                LOG.warn("Could not fetch the metadata after {}; following the controller will: {}", api,
                        e.toString());
            }
            return response;
        }, forwarding);
    }

    /** One exchange with the controller. */
    @FunctionalInterface
    private interface Exchange {
        Struct send() throws IOException;
    }

    /**
     * Sends the request, and once more on a new connection if the first fails: the connection may be one the
     * controller closed while it was idle (it restarted since the last request), which fails at the first use, as
     * Kafka's brokers resend what was in flight when their channel to the controller disconnects. A request the
     * controller did apply before the failure is applied twice, which these requests' answers tolerate (a topic or
     * credential that exists, an ACL already there or already gone). Not after a read that timed out: the
     * controller got that request and is still at it, so a resend would only earn its repeat's answer.
     *
     * <p>Once, not Kafka's depth: Kafka's forwarding channel keeps requeueing a disconnected request, reconnecting
     * after a backoff, until 60 s have passed since it came (then REQUEST_TIMED_OUT). Here the one
     * {@code forwarding} thread would be held that long for every request behind it, so a controller still down at
     * the resend is answered REQUEST_TIMED_OUT at once, and the client's own retry (or its user) tries again later.
     */
    private Struct sendResendingOnce(ApiKey api, short version, Struct body) throws IOException {
        try {
            return controller.send(api, version, body);
        } catch (SocketTimeoutException unanswered) {
            throw unanswered; // the controller has it and may have applied it: a resend would be answered as a repeat
        } catch (IOException first) {
            LOG.debug("Resending {} to the controller on a new connection after: {}", api, first.toString());
            return controller.send(api, version, body);
        }
    }
}
