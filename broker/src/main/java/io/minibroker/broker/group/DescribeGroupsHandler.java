package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView.DescribedGroup;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeGroups: state, protocol and members of each group. As in Kafka, the chosen protocol and each
 * member's metadata and assignment are given only while Stable; an unknown group is "Dead" (v0-5) or
 * GROUP_ID_NOT_FOUND (v6+), and so is a consumer-protocol group ("not a classic group"); one coordinated elsewhere,
 * NOT_COORDINATOR.
 */
public final class DescribeGroupsHandler implements ApiHandler {

    private static final int NOT_FOUND_ERROR_FROM_VERSION = 6;
    private static final byte[] NOTHING = new byte[0];

    private final GroupCoordinator coordinator;

    public DescribeGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeGroupsResponseView response = new DescribeGroupsResponseView();
        List<String> groupIds = new DescribeGroupsRequestView(request.body()).groups();
        for (String groupId : groupIds) {
            DescribedGroup described = response.addGroup().groupId(groupId)
                    .errorCode(Errors.NONE.code()).protocolType("").protocolData("");
            Errors notHere = coordinator.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                described.errorCode(notHere.code()).groupState("");
                continue;
            }
            Optional<ClassicGroup> found = coordinator.group(groupId);
            if (found.isEmpty()) {
                // A consumer-protocol group is not one this API describes: Kafka answers as for no group at all.
                described.groupState(GroupState.DEAD.kafkaName());
                if (request.version() >= NOT_FOUND_ERROR_FROM_VERSION) {
                    described.errorCode(Errors.GROUP_ID_NOT_FOUND.code())
                            .errorMessage(coordinator.notFound(GroupType.CLASSIC, groupId));
                }
                continue;
            }
            ClassicGroup group = found.get();
            synchronized (group) {
                boolean stable = group.state() == GroupState.STABLE;
                described.groupState(group.state().kafkaName())
                        .protocolType(group.protocolType == null ? "" : group.protocolType)
                        .protocolData(stable ? group.protocolName : "");
                for (GroupMember member : group.members.values()) {
                    described.addMember().memberId(member.memberId)
                            .groupInstanceId(member.groupInstanceId)
                            .clientId(member.clientId).clientHost(member.clientHost)
                            .memberMetadata(stable ? member.protocols.get(group.protocolName) : NOTHING)
                            .memberAssignment(stable ? member.assignment : NOTHING);
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
