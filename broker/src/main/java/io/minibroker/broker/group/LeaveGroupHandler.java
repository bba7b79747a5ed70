package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.LeaveGroupRequestView;
import io.minibroker.protocol.message.view.LeaveGroupRequestView.MemberIdentity;
import io.minibroker.protocol.message.view.LeaveGroupResponseView;
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
        LeaveGroupRequestView body = new LeaveGroupRequestView(request.body());
        String groupId = body.groupId();
        LeaveGroupResponseView response = new LeaveGroupResponseView();
        Errors notHere = coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(response.errorCode(notHere.code()).struct());
        }
        if (request.version() < BATCHED_FROM_VERSION) {
            Errors error = coordinator.leave(groupId, body.memberId(), null);
            return CompletableFuture.completedFuture(response.errorCode(error.code()).struct());
        }
        response.errorCode(Errors.NONE.code());
        for (MemberIdentity member : body.members()) {
            Errors error = coordinator.leave(groupId, member.memberId(), member.groupInstanceId());
            response.addMember().memberId(member.memberId()).groupInstanceId(member.groupInstanceId())
                    .errorCode(error.code());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
