package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView.DescribedGroup;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ConsumerGroupDescribe (KIP-848): each consumer-protocol group's epochs, assignor and members with their current
 * and target assignments. As Kafka answers: a group that does not exist is GROUP_ID_NOT_FOUND "Group … not found.",
 * a group of another type GROUP_ID_NOT_FOUND "Group … is not a consumer group.", one coordinated elsewhere
 * NOT_COORDINATOR.
 */
public final class ConsumerGroupDescribeHandler implements ApiHandler {

    /** Kafka's MemberType (v1+) of a member that heartbeats with the consumer protocol, and of a classic one. */
    private static final byte CONSUMER_MEMBER = 1;
    private static final byte CLASSIC_MEMBER = 0;

    private final GroupCoordinator coordinator;
    private final TopicRegistry topics;

    public ConsumerGroupDescribeHandler(GroupCoordinator coordinator, TopicRegistry topics) {
        this.coordinator = coordinator;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ConsumerGroupDescribeResponseView response = new ConsumerGroupDescribeResponseView();
        for (String groupId : new ConsumerGroupDescribeRequestView(request.body()).groupIds()) {
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
            ConsumerGroup group = coordinator.consumerGroup(groupId);
            if (group == null) {
                described.errorCode(Errors.GROUP_ID_NOT_FOUND.code())
                        .errorMessage(coordinator.notFound(GroupType.CONSUMER, groupId));
                continue;
            }
            synchronized (group) {
                describe(group, described, request.version());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    private void describe(ConsumerGroup group, DescribedGroup described, short version) {
        if (group.isDead()) {
            described.errorCode(Errors.GROUP_ID_NOT_FOUND.code()).errorMessage("Group " + group.groupId
                    + " not found.");
            return;
        }
        described.groupState(group.state().displayName).groupEpoch(group.groupEpoch)
                .assignmentEpoch(group.assignmentEpoch)
                .assignorName(coordinator.preferredAssignor(group));
        for (ConsumerGroupMember member : group.allMembers()) {
            ConsumerGroupDescribeResponseView.Member entry = described.addMember().memberId(member.memberId)
                    .instanceId(member.instanceId).rackId(member.rackId).memberEpoch(member.memberEpoch)
                    .clientId(member.clientId).clientHost(member.clientHost)
                    .subscribedTopicNames(member.subscribedTopicNames)
                    // "" for a member without one, as Kafka's member (and its record) has it
                    .subscribedTopicRegex(member.subscribedTopicRegex == null ? "" : member.subscribedTopicRegex);
            fill(entry.assignment(), member.assignedPartitions);
            fill(entry.targetAssignment(), group.targetOf(member.memberId));
            if (version >= 1) {
                entry.memberType(member.usesClassicProtocol() ? CLASSIC_MEMBER : CONSUMER_MEMBER);
            }
        }
    }

    private void fill(ConsumerGroupDescribeResponseView.Assignment assignment, Map<UUID, Set<Integer>> partitions) {
        partitions.forEach((topicId, numbers) -> {
            Optional<TopicMetadata> topic = topics.known(topicId);
            assignment.addTopicPartition().topicId(topicId).topicName(topic.map(TopicMetadata::name).orElse(""))
                    .partitions(List.copyOf(numbers));
        });
    }
}
