package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.StreamsGroupDescribeRequestView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeResponseView;
import io.minibroker.protocol.message.view.StreamsGroupDescribeResponseView.DescribedGroup;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * StreamsGroupDescribe (KIP-1071): each streams group's state, epochs, topology and members with their current and
 * target tasks. As Kafka answers: a group that does not exist is GROUP_ID_NOT_FOUND "Group … not found.", a group of
 * another type GROUP_ID_NOT_FOUND "Group … is not a streams group.", one coordinated elsewhere NOT_COORDINATOR.
 */
public final class StreamsGroupDescribeHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public StreamsGroupDescribeHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        StreamsGroupDescribeResponseView response = new StreamsGroupDescribeResponseView();
        for (String groupId : new StreamsGroupDescribeRequestView(request.body()).groupIds()) {
            DescribedGroup described = response.addGroup().groupId(groupId).groupState("");
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
            StreamsGroup group = coordinator.streamsGroup(groupId);
            if (group == null) {
                notFound(described, coordinator.notFound(GroupType.STREAMS, groupId));
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

    private static void describe(StreamsGroup group, DescribedGroup described) {
        described.groupState(group.state().displayName).groupEpoch(group.groupEpoch)
                .assignmentEpoch(group.assignmentEpoch);
        if (group.topology != null) {
            StreamsGroupDescribeResponseView.Topology topology = new StreamsGroupDescribeResponseView.Topology()
                    .epoch(group.topology.epoch());
            List<StreamsGroupDescribeResponseView.Subtopology> subtopologies = new ArrayList<>();
            for (StreamsTopology.Subtopology s : group.topology.subtopologies().values()) {
                subtopologies.add(new StreamsGroupDescribeResponseView.Subtopology().subtopologyId(s.id())
                        .sourceTopics(s.sourceTopics()).repartitionSinkTopics(s.repartitionSinkTopics())
                        .stateChangelogTopics(topicInfos(s.stateChangelogTopics()))
                        .repartitionSourceTopics(topicInfos(s.repartitionSourceTopics())));
            }
            described.topology(topology.subtopologies(subtopologies));
        }
        for (StreamsGroupMember member : group.members.values()) {
            StreamsGroupDescribeResponseView.Member entry = described.addMember().memberId(member.memberId)
                    .memberEpoch(member.memberEpoch).instanceId(member.instanceId).rackId(member.rackId)
                    .clientId(member.clientId).clientHost(member.clientHost).topologyEpoch(member.topologyEpoch)
                    .processId(member.processId);
            if (member.userEndpoint != null) {
                entry.userEndpoint(new StreamsGroupDescribeResponseView.Endpoint().host(member.userEndpoint.host())
                        .port(member.userEndpoint.port()));
            }
            List<StreamsGroupDescribeResponseView.KeyValue> tags = new ArrayList<>();
            member.clientTags.forEach((key, value) -> tags.add(new StreamsGroupDescribeResponseView.KeyValue()
                    .key(key).value(value)));
            entry.clientTags(tags);
            fill(entry.assignment(), member.assignedTasks);
            fill(entry.targetAssignment(), group.targetOf(member.memberId));
        }
    }

    private static List<StreamsGroupDescribeResponseView.TopicInfo> topicInfos(List<StreamsTopology.TopicInfo> infos) {
        List<StreamsGroupDescribeResponseView.TopicInfo> result = new ArrayList<>();
        for (StreamsTopology.TopicInfo info : infos) {
            List<StreamsGroupDescribeResponseView.KeyValue> configs = new ArrayList<>();
            info.configs().forEach((key, value) -> configs.add(new StreamsGroupDescribeResponseView.KeyValue()
                    .key(key).value(value)));
            result.add(new StreamsGroupDescribeResponseView.TopicInfo().name(info.name())
                    .partitions(info.partitions()).replicationFactor(info.replicationFactor()).topicConfigs(configs));
        }
        return result;
    }

    private static void fill(StreamsGroupDescribeResponseView.Assignment assignment, StreamsTasks tasks) {
        assignment.activeTasks(taskIds(tasks.active())).standbyTasks(taskIds(tasks.standby()))
                .warmupTasks(taskIds(tasks.warmup()));
    }

    private static List<StreamsGroupDescribeResponseView.TaskIds> taskIds(Map<String, Set<Integer>> tasks) {
        List<StreamsGroupDescribeResponseView.TaskIds> ids = new ArrayList<>();
        tasks.forEach((sub, partitions) -> ids.add(new StreamsGroupDescribeResponseView.TaskIds()
                .subtopologyId(sub).partitions(List.copyOf(partitions))));
        return ids;
    }
}
