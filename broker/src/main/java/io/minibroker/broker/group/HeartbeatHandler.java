package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.HeartbeatRequestView;
import io.minibroker.protocol.message.view.HeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Heartbeat: keeps a member's session alive; REBALANCE_IN_PROGRESS tells it to rejoin. */
public final class HeartbeatHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public HeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        HeartbeatRequestView body = new HeartbeatRequestView(request.body());
        String groupInstanceId = request.version() >= 3 ? body.groupInstanceId() : null;
        short error = coordinator.heartbeat(body.groupId(), body.generationId(), body.memberId(), groupInstanceId)
                .code();
        return CompletableFuture.completedFuture(new HeartbeatResponseView().errorCode(error).struct());
    }
}
