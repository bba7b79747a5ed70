package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * How a broker in a cluster has the controller make the changes only it may make (CreateTopics, DeleteTopics,
 * CreatePartitions, ElectLeaders, AlterConfigs, IncrementalAlterConfigs, CreateAcls, DeleteAcls,
 * AlterUserScramCredentials), as Kafka's brokers forward them: the request goes to
 * the controller as it came (same version, same body) and its answer back to the client, after this broker has
 * fetched the new image, so that the client's next request here sees the change. The wait runs on
 * {@code forwarding}, never on an event loop. One connection carries them all, one at a time, in order.
 */
public final class ControllerForwarder {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerForwarder.class);

    private final NodeChannel controller;
    private final MetadataFetcher metadata;
    private final Executor forwarding;

    public ControllerForwarder(NodeChannel controller, MetadataFetcher metadata, Executor forwarding) {
        this.controller = controller;
        this.metadata = metadata;
        this.forwarding = forwarding;
    }

    /**
     * A handler that forwards this API's requests; when the controller cannot be reached it answers what
     * {@code unreachable} makes of the request (see {@link ControllerUnreachable}), which clients retry.
     */
    public ApiHandler handlerFor(ApiKey api, Function<Request, Struct> unreachable) {
        return (context, request) -> forward(api, request.version(), request.body()).exceptionally(failure -> {
            LOG.warn("Could not forward {} to the controller: {}", api, failure.getCause());
            return unreachable.apply(request);
        });
    }

    /**
     * Sends a request to the controller and completes with its answer once this broker has the image that
     * follows it; completes exceptionally if the controller cannot be reached. For requests this broker makes on
     * its own account too (a topic auto-created by Metadata).
     */
    public CompletableFuture<Struct> forward(ApiKey api, short version, Struct body) {
        return CompletableFuture.supplyAsync(() -> {
            Struct response;
            try {
                response = sendResendingOnce(api, version, body);
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
