package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.group.CoordinatorLocator.Coordinator;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * FindCoordinator: the coordinator of a group (key type 0) as the {@link CoordinatorLocator} finds it (the leader of
 * the group's offsets partition: this node on a single node; COORDINATOR_NOT_AVAILABLE while the offsets topic is
 * being created), at its endpoint on the listener the request came in on; a transactional id (key type 1) as the
 * transactions' locator finds it (the leader of its {@code __transaction_state} partition, on a single node and in a
 * cluster alike, the topic created on first need). Other key types have no coordinator:
 * COORDINATOR_NOT_AVAILABLE. v0-3 ask for one key; v4+ for a batch, each key answered on its own.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private static final byte GROUP_KEY = 0;
    private static final byte TRANSACTION_KEY = 1;
    private static final int BATCHED_FROM_VERSION = 4;

    private final CoordinatorLocator locator;
    private final CoordinatorLocator transactions;

    public FindCoordinatorHandler(CoordinatorLocator locator, CoordinatorLocator transactions) {
        this.locator = locator;
        this.transactions = transactions;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        FindCoordinatorRequestView body = new FindCoordinatorRequestView(request.body());
        byte keyType = request.version() >= 1 ? body.keyType() : GROUP_KEY;
        FindCoordinatorResponseView response = new FindCoordinatorResponseView();
        if (request.version() < BATCHED_FROM_VERSION) {
            Coordinator coordinator = find(keyType, body.key(), context.listenerName());
            return CompletableFuture.completedFuture(response.errorCode(coordinator.error().code())
                    .errorMessage(message(coordinator))
                    .nodeId(coordinator.nodeId()).host(coordinator.host())
                    .port(coordinator.port()).struct());
        }
        List<String> keys = body.coordinatorKeys();
        for (String key : keys) {
            Coordinator coordinator = find(keyType, key, context.listenerName());
            response.addCoordinator().key(key)
                    .nodeId(coordinator.nodeId()).host(coordinator.host())
                    .port(coordinator.port())
                    .errorCode(coordinator.error().code())
                    .errorMessage(message(coordinator));
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private Coordinator find(byte keyType, String key, String listenerName) {
        return switch (keyType) {
            case GROUP_KEY -> locator.locate(key, listenerName);
            case TRANSACTION_KEY -> transactions.locate(key, listenerName);
            default -> Coordinator.notAvailable();
        };
    }

    private static String message(Coordinator coordinator) {
        return coordinator.error() == Errors.NONE ? null : coordinator.error().name();
    }
}
