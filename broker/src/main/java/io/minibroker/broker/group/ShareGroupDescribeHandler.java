package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView.DescribedGroup;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ShareGroupDescribe (KIP-932): each share group's state, epochs, assignor and members with their assignments. As
 * Kafka answers: a group that does not exist is GROUP_ID_NOT_FOUND "Group … not found.", a group of another
 * type GROUP_ID_NOT_FOUND "Group … is not a share group.", one coordinated elsewhere NOT_COORDINATOR.
 */
public final class ShareGroupDescribeHandler implements ApiHandler {

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public ShareGroupDescribeHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ShareGroupDescribeResponseView response = new ShareGroupDescribeResponseView();
        for (String groupId : new ShareGroupDescribeRequestView(request.body()).groupIds()) {
            DescribedGroup described = response.addGroup().groupId(groupId).groupState("").assignorName("");
            if (groupId.isEmpty()) {
                // Kafka's group coordinator service, before it looks for the group's coordinator: no message.
                described.errorCode(Errors.INVALID_GROUP_ID.code());
                continue;
            }
            Errors notHere = coordinator.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                described.errorCode(notHere.code());
                continue;
            }
            ShareGroup group = coordinator.shareGroup(groupId);
            if (group == null) {
                notFound(described, coordinator.notFound(GroupType.SHARE, groupId));
                continue;
            }
            synchronized (group) {
                if (group.isDead()) {
                    notFound(described, "Group " + groupId + " not found.");
                    continue;
                }
                describe(group, described);
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private static void notFound(DescribedGroup described, String message) {
        described.errorCode(Errors.GROUP_ID_NOT_FOUND.code()).errorMessage(message);
    }

    private void describe(ShareGroup group, DescribedGroup described) {
        described.groupState(group.state().displayName).groupEpoch(group.groupEpoch)
                .assignmentEpoch(group.assignmentEpoch).assignorName(ShareGroupAssignor.NAME);
        for (ShareGroupMember member : group.members.values()) {
            ShareGroupDescribeResponseView.Member entry = described.addMember().memberId(member.memberId)
                    .rackId(member.rackId).memberEpoch(member.memberEpoch).clientId(member.clientId)
                    .clientHost(member.clientHost).subscribedTopicNames(member.subscribedTopicNames);
            member.assignedPartitions.forEach((topicId, numbers) -> entry.assignment().addTopicPartition()
                    .topicId(topicId).topicName(topics.known(topicId).map(TopicMetadata::name).orElse(""))
                    .partitions(List.copyOf(numbers)));
        }
    }
}
