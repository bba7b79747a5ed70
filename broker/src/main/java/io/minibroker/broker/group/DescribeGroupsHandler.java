package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeGroups: state, protocol and members of each group. As in Kafka, the chosen protocol and each
 * member's metadata and assignment are given only while Stable; an unknown group is "Dead" (v0-5) or
 * GROUP_ID_NOT_FOUND (v6+); one coordinated elsewhere, NOT_COORDINATOR.
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
        Struct response = ApiKey.DESCRIBE_GROUPS.response().newMessage();
        List<String> groupIds = request.body().getList("Groups");
        for (String groupId : groupIds) {
            Struct described = response.addElement("Groups").set("GroupId", groupId)
                    .set("ErrorCode", Errors.NONE.code()).set("ProtocolType", "").set("ProtocolData", "");
            Errors notHere = coordinator.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                described.set("ErrorCode", notHere.code()).set("GroupState", "");
                continue;
            }
            Optional<ClassicGroup> found = coordinator.group(groupId);
            if (found.isEmpty()) {
                described.set("GroupState", GroupState.DEAD.kafkaName());
                if (request.version() >= NOT_FOUND_ERROR_FROM_VERSION) {
                    described.set("ErrorCode", Errors.GROUP_ID_NOT_FOUND.code())
                            .set("ErrorMessage", "Group " + groupId + " not found.");
                }
                continue;
            }
            ClassicGroup group = found.get();
            synchronized (group) {
                boolean stable = group.state() == GroupState.STABLE;
                described.set("GroupState", group.state().kafkaName())
                        .set("ProtocolType", group.protocolType == null ? "" : group.protocolType)
                        .set("ProtocolData", stable ? group.protocolName : "");
                for (GroupMember member : group.members.values()) {
                    described.addElement("Members").set("MemberId", member.memberId)
                            .set("GroupInstanceId", member.groupInstanceId)
                            .set("ClientId", member.clientId).set("ClientHost", member.clientHost)
                            .set("MemberMetadata", stable ? member.protocols.get(group.protocolName) : NOTHING)
                            .set("MemberAssignment", stable ? member.assignment : NOTHING);
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
