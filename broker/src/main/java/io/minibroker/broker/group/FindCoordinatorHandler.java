package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.LocalNode;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * FindCoordinator: this node coordinates every group (key type 0), answered with its endpoint on the listener
 * the request came in on. Transactions (key type 1) have no coordinator yet: COORDINATOR_NOT_AVAILABLE.
 * v0-3 ask for one key; v4+ for a batch.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private static final byte GROUP_KEY = 0;
    private static final int BATCHED_FROM_VERSION = 4;

    private final LocalNode node;

    public FindCoordinatorHandler(LocalNode node) {
        this.node = node;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        byte keyType = request.version() >= 1 ? body.getInt8("KeyType") : GROUP_KEY;
        Optional<Endpoint> endpoint = node.endpointFor(context.listenerName());
        Errors error = keyType != GROUP_KEY ? Errors.COORDINATOR_NOT_AVAILABLE
                : endpoint.isEmpty() ? Errors.COORDINATOR_NOT_AVAILABLE : Errors.NONE;
        int nodeId = error == Errors.NONE ? node.nodeId() : -1;
        String host = error == Errors.NONE ? endpoint.get().host() : "";
        int port = error == Errors.NONE ? endpoint.get().port() : -1;
        Struct response = ApiKey.FIND_COORDINATOR.response().newMessage();
        if (request.version() < BATCHED_FROM_VERSION) {
            return CompletableFuture.completedFuture(response.set("ErrorCode", error.code())
                    .set("ErrorMessage", error == Errors.NONE ? null : error.name())
                    .set("NodeId", nodeId).set("Host", host).set("Port", port));
        }
        List<String> keys = body.getList("CoordinatorKeys");
        for (String key : keys) {
            response.addElement("Coordinators").set("Key", key)
                    .set("NodeId", nodeId).set("Host", host).set("Port", port)
                    .set("ErrorCode", error.code())
                    .set("ErrorMessage", error == Errors.NONE ? null : error.name());
        }
        return CompletableFuture.completedFuture(response);
    }
}
