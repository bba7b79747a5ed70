package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListGroupsRequestView;
import io.minibroker.protocol.message.view.ListGroupsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * ListGroups: every group this broker coordinates (in a cluster, those of the offsets partitions it leads),
 * optionally filtered by state (v4+, Kafka's state names, case-insensitive) and type (v5+); while one of those
 * partitions is loading, the error is COORDINATOR_LOAD_IN_PROGRESS, beside the groups already loaded, as Kafka's
 * classic coordinator answers. A group is "classic" (JoinGroup/SyncGroup), "consumer" (KIP-848), "share"
 * (KIP-932) or "streams" (KIP-1071), as Kafka types them.
 */
public final class ListGroupsHandler implements ApiHandler {

    private static final String CLASSIC = "classic";
    private static final String CONSUMER = "consumer";
    private static final String SHARE = "share";
    private static final String STREAMS = "streams";

    private final GroupCoordinator coordinator;

    public ListGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ListGroupsRequestView body = new ListGroupsRequestView(request.body());
        List<String> states = request.version() >= 4 ? body.statesFilter() : List.of();
        List<String> types = request.version() >= 5 ? body.typesFilter() : List.of();
        ListGroupsResponseView response = new ListGroupsResponseView().errorCode(Errors.NONE.code());
        if (coordinator.loadInProgress()) {
            // Some of this broker's groups are not known yet: listed are those that are, and the admin client asks
            // again, as with Kafka.
            response.errorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        }
        if (wanted(types, CONSUMER)) {
            listGroupsOfType(response, states, CONSUMER, coordinator.allConsumerGroups(), group -> group.groupId,
                    group -> group.state() == ConsumerGroup.State.DEAD ? null : group.state().displayName);
        }
        if (wanted(types, SHARE)) {
            listGroupsOfType(response, states, SHARE, coordinator.allShareGroups(), group -> group.groupId,
                    group -> group.state() == ShareGroup.State.DEAD ? null : group.state().displayName);
        }
        if (wanted(types, STREAMS)) {
            listGroupsOfType(response, states, STREAMS, coordinator.allStreamsGroups(), group -> group.groupId,
                    group -> group.state() == StreamsGroup.State.DEAD ? null : group.state().displayName);
        }
        if (wanted(types, CLASSIC)) {
            for (ClassicGroup group : coordinator.allGroups()) {
                GroupState state;
                String protocolType;
                synchronized (group) {
                    state = group.state();
                    protocolType = group.protocolType == null ? "" : group.protocolType;
                }
                list(response, states, group.groupId, protocolType,
                        state == GroupState.DEAD ? null : state.kafkaName(), CLASSIC);
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** Whether the types filter (v5+; empty: every type) asks for groups of this type. */
    private static boolean wanted(List<String> types, String type) {
        return types.isEmpty() || types.stream().anyMatch(type::equalsIgnoreCase);
    }

    /**
     * Lists groups of a type that is also their protocol type (consumer, share), each with its state name (null
     * when dead) read under its lock.
     */
    private static <G> void listGroupsOfType(ListGroupsResponseView response, List<String> states, String type,
                                             List<G> groups, Function<G, String> groupId,
                                             Function<G, String> stateUnlessDead) {
        for (G group : groups) {
            String state;
            synchronized (group) {
                state = stateUnlessDead.apply(group);
            }
            list(response, states, groupId.apply(group), type, state, type);
        }
    }

    /** Lists a group unless it is dead ({@code state} null) or the states filter leaves its state out. */
    private static void list(ListGroupsResponseView response, List<String> states, String groupId,
                             String protocolType, String state, String groupType) {
        if (state == null || !states.isEmpty() && states.stream().noneMatch(state::equalsIgnoreCase)) {
            return;
        }
        response.addGroup().groupId(groupId).protocolType(protocolType).groupState(state).groupType(groupType);
    }
}
