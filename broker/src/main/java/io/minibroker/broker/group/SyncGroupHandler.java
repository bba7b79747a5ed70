package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
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
        Struct body = request.body();
        Map<String, byte[]> assignments = new HashMap<>();
        for (Struct assignment : body.getStructs("Assignments")) {
            assignments.put(assignment.getString("MemberId"), assignment.getBytes("Assignment"));
        }
        String groupId = body.getString("GroupId");
        return coordinator.sync(groupId, body.getInt32("GenerationId"), body.getString("MemberId"),
                        request.version() >= 3 ? body.getString("GroupInstanceId") : null, assignments)
                .thenApply(response -> request.version() >= 5
                        ? response.set("ProtocolType", body.getString("ProtocolType"))
                                .set("ProtocolName", body.getString("ProtocolName"))
                        : response);
    }
}
