package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * LeaveGroup: v0-2 remove one member (the error is top-level); v3+ a batch, each with its own error and the
 * top-level error NONE. A group not coordinated here is answered with the top-level error alone.
 */
public final class LeaveGroupHandler implements ApiHandler {

    private static final int BATCHED_FROM_VERSION = 3;

    private final GroupCoordinator coordinator;

    public LeaveGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        String groupId = body.getString("GroupId");
        Struct response = ApiKey.LEAVE_GROUP.response().newMessage();
        Errors notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(response.set("ErrorCode", notHere.code()));
        }
        if (request.version() < BATCHED_FROM_VERSION) {
            Errors error = coordinator.leave(groupId, body.getString("MemberId"), null);
            return CompletableFuture.completedFuture(response.set("ErrorCode", error.code()));
        }
        response.set("ErrorCode", Errors.NONE.code());
        for (Struct member : body.getStructs("Members")) {
            Errors error = coordinator.leave(groupId, member.getString("MemberId"),
                    member.getString("GroupInstanceId"));
            response.addElement("Members").set("MemberId", member.getString("MemberId"))
                    .set("GroupInstanceId", member.getString("GroupInstanceId"))
                    .set("ErrorCode", error.code());
        }
        return CompletableFuture.completedFuture(response);
    }
}
