package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.message.view.SyncGroupRequestView.SyncGroupRequestAssignment;
import io.minibroker.protocol.schema.Struct;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * SyncGroup: the leader brings the assignment, followers wait for it (parked until the leader syncs or a
 * rebalance starts). From v5 the protocol type and name it names must be the group's (INCONSISTENT_GROUP_PROTOCOL
 * if not), and a successful answer carries them.
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
        boolean v5 = request.version() >= 5;
        return coordinator.sync(new SyncRequest(body.groupId(), body.generationId(), body.memberId(),
                request.version() >= 3 ? body.groupInstanceId() : null, v5 ? body.protocolType() : null,
                v5 ? body.protocolName() : null, assignments));
    }
}
