package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * CreateTopics on a broker in a cluster: the controller decides, so the request goes to it as it came (same
 * version, same body) and its answer back to the client, after this broker has fetched the new image, so that the
 * client's next Metadata here sees its topics. The wait runs on {@code forwarding}, never on an event loop. A
 * controller that cannot be reached answers each topic REQUEST_TIMED_OUT, which clients retry.
 */
public final class ForwardingCreateTopicsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ForwardingCreateTopicsHandler.class);

    private final NodeChannel controller;
    private final MetadataFetcher metadata;
    private final Executor forwarding;

    public ForwardingCreateTopicsHandler(NodeChannel controller, MetadataFetcher metadata, Executor forwarding) {
        this.controller = controller;
        this.metadata = metadata;
        this.forwarding = forwarding;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        return CompletableFuture.supplyAsync(() -> forward(request), forwarding);
    }

    private Struct forward(Request request) {
        Struct response;
        try {
            response = controller.send(ApiKey.CREATE_TOPICS, request.version(), request.body());
        } catch (IOException e) {
            LOG.warn("Could not forward CreateTopics to the controller: {}", e.toString());
            response = ApiKey.CREATE_TOPICS.response().newMessage();
            for (Struct topic : request.body().getStructs("Topics")) {
                response.addElement("Topics").set("Name", topic.getString("Name"))
                        .set("ErrorCode", Errors.REQUEST_TIMED_OUT.code())
                        .set("ErrorMessage", "the controller cannot be reached");
            }
            return response;
        }
        try {
            metadata.refresh();
        } catch (IOException e) {
            LOG.warn("Could not fetch the metadata after CreateTopics; the next heartbeat will: {}", e.toString());
        }
        return response;
    }
}
