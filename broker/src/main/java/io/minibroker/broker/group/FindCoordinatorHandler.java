package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.group.CoordinatorLocator.Coordinator;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * FindCoordinator: the coordinator of a group (key type 0) as the {@link CoordinatorLocator} finds it (this node on a
 * single node; in a cluster, the leader of the group's offsets partition), at its endpoint on the listener the
 * request came in on. Transactions (key type 1) have no coordinator yet: COORDINATOR_NOT_AVAILABLE. v0-3 ask for
 * one key; v4+ for a batch, each key answered on its own.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private static final byte GROUP_KEY = 0;
    private static final int BATCHED_FROM_VERSION = 4;

    private final CoordinatorLocator locator;

    public FindCoordinatorHandler(CoordinatorLocator locator) {
        this.locator = locator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        byte keyType = request.version() >= 1 ? body.getInt8("KeyType") : GROUP_KEY;
        Struct response = ApiKey.FIND_COORDINATOR.response().newMessage();
        if (request.version() < BATCHED_FROM_VERSION) {
            Coordinator coordinator = find(keyType, body.getString("Key"), context.listenerName());
            return CompletableFuture.completedFuture(response.set("ErrorCode", coordinator.error().code())
                    .set("ErrorMessage", message(coordinator))
                    .set("NodeId", coordinator.nodeId()).set("Host", coordinator.host())
                    .set("Port", coordinator.port()));
        }
        List<String> keys = body.getList("CoordinatorKeys");
        for (String key : keys) {
            Coordinator coordinator = find(keyType, key, context.listenerName());
            response.addElement("Coordinators").set("Key", key)
                    .set("NodeId", coordinator.nodeId()).set("Host", coordinator.host())
                    .set("Port", coordinator.port())
                    .set("ErrorCode", coordinator.error().code())
                    .set("ErrorMessage", message(coordinator));
        }
        return CompletableFuture.completedFuture(response);
    }

    private Coordinator find(byte keyType, String key, String listenerName) {
        return keyType != GROUP_KEY ? Coordinator.notAvailable() : locator.locate(key, listenerName);
    }

    private static String message(Coordinator coordinator) {
        return coordinator.error() == Errors.NONE ? null : coordinator.error().name();
    }
}
