package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.LeaveGroupRequestView;
import io.minibroker.protocol.message.view.LeaveGroupRequestView.MemberIdentity;
import io.minibroker.protocol.message.view.LeaveGroupResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * LeaveGroup: v0-2 remove one member (the error is top-level); v3+ a batch, each with its own error and the
 * top-level error NONE. A group not coordinated here is answered with the top-level error alone; so is a leave
 * whose removal could not be written (classic-protocol members of a consumer group: all the request's removals are
 * one write, as Kafka's), as Kafka answers a failed coordinator write.
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
        Errors notHere = groupId.isEmpty() ? Errors.INVALID_GROUP_ID : coordinator.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(response.errorCode(notHere.code()).struct());
        }
        if (request.version() < BATCHED_FROM_VERSION) {
            return coordinator.leave(groupId, List.of(new LeavingMember(body.memberId(), null))).handle(
                    (errors, failure) -> response.errorCode((failure == null ? errors.get(0)
                            : CoordinatorWriteErrors.answerFor(failure)).code()).struct());
        }
        List<MemberIdentity> members = body.members();
        return coordinator.leave(groupId, members.stream()
                .map(member -> new LeavingMember(member.memberId(), member.groupInstanceId())).toList())
                .handle((errors, failure) -> {
                    if (failure != null) { // as Kafka's failed coordinator write: the whole request gets its error
                        return response.errorCode(CoordinatorWriteErrors.answerFor(failure).code()).struct();
                    }
                    response.errorCode(Errors.NONE.code());
                    for (int i = 0; i < members.size(); i++) {
                        MemberIdentity member = members.get(i);
                        response.addMember().memberId(member.memberId()).groupInstanceId(member.groupInstanceId())
                                .errorCode(errors.get(i).code());
                    }
                    return response.struct();
                });
    }
}
