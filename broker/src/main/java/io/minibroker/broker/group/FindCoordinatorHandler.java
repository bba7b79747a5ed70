package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.group.CoordinatorLocator.Coordinator;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.protocol.error.DefaultMessages;
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
 * cluster alike, the topic created on first need); a share partition (key type 2, {@code groupId:topicId:partition})
 * by the same rule over {@code __share_group_state}, a key that is not one, or a request before v6, INVALID_REQUEST.
 * v0-3 ask for one key; v4+ for a batch, each key answered on its own. Any other key type fails the whole request
 * INVALID_REQUEST.
 *
 * <p>The messages are Kafka 4.3.1's (KafkaApis): v1-3 carry the error's own message (for no error its name,
 * "NONE"); a v4+ coordinator's message is left empty, but for the whole request's failure, which carries the
 * error's message in every entry.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private static final byte GROUP_KEY = 0;
    private static final byte TRANSACTION_KEY = 1;
    private static final byte SHARE_KEY = 2;
    private static final int BATCHED_FROM_VERSION = 4;
    /** KIP-932's key type is known from v6; an older request naming it is INVALID_REQUEST, as Kafka answers it. */
    private static final int SHARE_KEYS_FROM_VERSION = 6;
    /** What Kafka's Errors.NONE says of itself: it has no exception, so its message is its name. */
    private static final String NO_ERROR_MESSAGE = "NONE";

    private final CoordinatorLocator.ByKeyType locators;

    public FindCoordinatorHandler(CoordinatorLocator.ByKeyType locators) {
        this.locators = locators;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        FindCoordinatorRequestView body = new FindCoordinatorRequestView(request.body());
        byte keyType = request.version() >= 1 ? body.keyType() : GROUP_KEY;
        boolean batched = request.version() >= BATCHED_FROM_VERSION;
        List<String> keys = batched ? body.coordinatorKeys() : List.of(body.key());
        boolean unknownKeyType = keyType < GROUP_KEY || keyType > SHARE_KEY; // the whole request fails
        FindCoordinatorResponseView response = new FindCoordinatorResponseView();
        for (String key : keys) {
            Coordinator coordinator = unknownKeyType ? Coordinator.failed(Errors.INVALID_REQUEST)
                    : find(keyType, key, request.version(), context.listenerName());
            if (!batched) {
                response.errorCode(coordinator.error().code()).errorMessage(singleKeyMessage(coordinator.error()))
                        .nodeId(coordinator.nodeId()).host(coordinator.host()).port(coordinator.port());
                continue;
            }
            response.addCoordinator().key(key)
                    .nodeId(coordinator.nodeId()).host(coordinator.host())
                    .port(coordinator.port())
                    .errorCode(coordinator.error().code())
                    .errorMessage(unknownKeyType ? DefaultMessages.of(coordinator.error()) : "");
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private Coordinator find(byte keyType, String key, short version, String listenerName) {
        return switch (keyType) {
            case GROUP_KEY -> locators.groups().locate(key, listenerName);
            case TRANSACTION_KEY -> locators.transactions().locate(key, listenerName);
            default -> SharePartitionKey.fromCoordinatorKey(key)
                    .filter(share -> version >= SHARE_KEYS_FROM_VERSION)
                    .map(share -> locators.shareStates().locate(share.coordinatorKey(), listenerName))
                    .orElseGet(() -> Coordinator.failed(Errors.INVALID_REQUEST));
        };
    }

    private static String singleKeyMessage(Errors error) {
        return error == Errors.NONE ? NO_ERROR_MESSAGE : DefaultMessages.of(error);
    }
}
