package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
        Struct body = request.body();
        String groupInstanceId = request.version() >= 3 ? body.getString("GroupInstanceId") : null;
        short error = coordinator.heartbeat(body.getString("GroupId"), body.getInt32("GenerationId"),
                body.getString("MemberId"), groupInstanceId).code();
        return CompletableFuture.completedFuture(ApiKey.HEARTBEAT.response().newMessage().set("ErrorCode", error));
    }
}
