package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.message.view.SyncGroupRequestView.SyncGroupRequestAssignment;
import io.minibroker.protocol.message.view.SyncGroupResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * SyncGroup: the leader brings the assignment, followers wait for it (parked until the leader syncs or a
 * rebalance starts). v5 responses echo the group's protocol type and name.
 */
public final class SyncGroupHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public SyncGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        SyncGroupRequestView body = new SyncGroupRequestView(request.body());
        Map<String, byte[]> assignments = new HashMap<>();
        for (SyncGroupRequestAssignment assignment : body.assignments()) {
            assignments.put(assignment.memberId(), assignment.assignment());
        }
        String groupId = body.groupId();
        return coordinator.sync(groupId, body.generationId(), body.memberId(),
                        request.version() >= 3 ? body.groupInstanceId() : null, assignments)
                .thenApply(response -> request.version() >= 5
                        ? new SyncGroupResponseView(response).protocolType(body.protocolType())
                                .protocolName(body.protocolName()).struct()
                        : response);
    }
}
