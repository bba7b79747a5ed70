package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.RequestingClient;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/** StreamsGroupHeartbeat (KIP-1071): a Kafka Streams member joins with its topology, heartbeats, reconciles or leaves. */
public final class StreamsGroupHeartbeatHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public StreamsGroupHeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        StreamsGroupHeartbeatRequestView body = new StreamsGroupHeartbeatRequestView(request.body());
        boolean[] regex = new boolean[1];
        StreamsTopology topology = body.topology() == null ? null : topology(body.topology(), regex);
        Map<String, String> clientTags = null;
        if (body.clientTags() != null) {
            clientTags = new LinkedHashMap<>();
            for (StreamsGroupHeartbeatRequestView.KeyValue tag : body.clientTags()) {
                clientTags.put(tag.key(), tag.value());
            }
        }
        StreamsGroupMember.Endpoint endpoint = body.userEndpoint() == null ? null
                : new StreamsGroupMember.Endpoint(body.userEndpoint().host(), body.userEndpoint().port());
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        StreamsGroupHeartbeat.Request heartbeat = new StreamsGroupHeartbeat.Request(body.groupId(), body.memberId(),
                body.memberEpoch(), body.endpointInformationEpoch(), body.instanceId(), body.rackId(),
                body.rebalanceTimeoutMs(), topology, regex[0], tasks(body.activeTasks()), tasks(body.standbyTasks()),
                tasks(body.warmupTasks()), body.processId(), endpoint, clientTags, body.shutdownApplication(),
                clientId, context.clientHost(), context.topicRights()::mayCreate,
                new RequestingClient(context, request.header()));
        return coordinator.streamsGroupHeartbeat(heartbeat).thenApply(StreamsGroupHeartbeatHandler::response);
    }

    /** The topology as declared; co-partition groups name their topics by index into the subtopology's lists. */
    private static StreamsTopology topology(StreamsGroupHeartbeatRequestView.Topology declared, boolean[] regex) {
        TreeMap<String, StreamsTopology.Subtopology> subtopologies = new TreeMap<>();
        for (StreamsGroupHeartbeatRequestView.Subtopology s : declared.subtopologies()) {
            regex[0] |= !s.sourceTopicRegex().isEmpty();
            List<StreamsTopology.TopicInfo> repartitionSources = topicInfos(s.repartitionSourceTopics());
            List<Set<String>> copartitionGroups = new ArrayList<>();
            for (StreamsGroupHeartbeatRequestView.CopartitionGroup group : s.copartitionGroups()) {
                Set<String> topics = new HashSet<>();
                for (short index : group.sourceTopics()) {
                    if (index >= 0 && index < s.sourceTopics().size()) {
                        topics.add(s.sourceTopics().get(index));
                    }
                }
                for (short index : group.repartitionSourceTopics()) {
                    if (index >= 0 && index < repartitionSources.size()) {
                        topics.add(repartitionSources.get(index).name());
                    }
                }
                copartitionGroups.add(Set.copyOf(topics));
            }
            subtopologies.put(s.subtopologyId(), new StreamsTopology.Subtopology(s.subtopologyId(),
                    List.copyOf(s.sourceTopics()), List.copyOf(s.repartitionSinkTopics()), repartitionSources,
                    topicInfos(s.stateChangelogTopics()), List.copyOf(copartitionGroups)));
        }
        return new StreamsTopology(declared.epoch(), subtopologies);
    }

    private static List<StreamsTopology.TopicInfo> topicInfos(List<StreamsGroupHeartbeatRequestView.TopicInfo> infos) {
        List<StreamsTopology.TopicInfo> result = new ArrayList<>();
        for (StreamsGroupHeartbeatRequestView.TopicInfo info : infos) {
            Map<String, String> configs = new TreeMap<>();
            for (StreamsGroupHeartbeatRequestView.KeyValue config : info.topicConfigs()) {
                configs.put(config.key(), config.value());
            }
            result.add(new StreamsTopology.TopicInfo(info.name(), info.partitions(), info.replicationFactor(),
                    Map.copyOf(configs)));
        }
        return List.copyOf(result);
    }

    private static Map<String, Set<Integer>> tasks(List<StreamsGroupHeartbeatRequestView.TaskIds> taskIds) {
        if (taskIds == null) {
            return null;
        }
        Map<String, Set<Integer>> tasks = new HashMap<>();
        for (StreamsGroupHeartbeatRequestView.TaskIds ids : taskIds) {
            tasks.computeIfAbsent(ids.subtopologyId(), s -> new HashSet<>()).addAll(ids.partitions());
        }
        return TopicAssignment.copyOf(tasks);
    }

    private static Struct response(StreamsGroupHeartbeat.Response answer) {
        StreamsGroupHeartbeatResponseView response = new StreamsGroupHeartbeatResponseView()
                .errorCode(answer.error().code()).errorMessage(answer.message())
                .memberId(answer.memberId() == null ? "" : answer.memberId()).memberEpoch(answer.memberEpoch())
                .heartbeatIntervalMs(answer.heartbeatIntervalMs())
                .endpointInformationEpoch(answer.endpointInformationEpoch());
        if (answer.statuses() != null) {
            for (StreamsConfiguredTopology.Status status : answer.statuses()) {
                response.addStatu().statusCode(status.code()).statusDetail(status.detail());
            }
        }
        if (answer.tasks() != null) {
            response.activeTasks(taskIds(answer.tasks().active()));
            response.standbyTasks(taskIds(answer.tasks().standby()));
            response.warmupTasks(taskIds(answer.tasks().warmup()));
        }
        if (answer.partitionsByUserEndpoint() != null) {
            response.partitionsByUserEndpoint(new ArrayList<>());
            for (StreamsGroupHeartbeat.EndpointPartitions partitions : answer.partitionsByUserEndpoint()) {
                StreamsGroupHeartbeatResponseView.EndpointToPartitions entry = response.addPartitionsByUserEndpoint()
                        .activePartitions(topicPartitions(partitions.active()))
                        .standbyPartitions(topicPartitions(partitions.standby()));
                entry.userEndpoint().host(partitions.endpoint().host()).port(partitions.endpoint().port());
            }
        }
        return response.struct();
    }

    private static List<StreamsGroupHeartbeatResponseView.TaskIds> taskIds(Map<String, Set<Integer>> tasks) {
        List<StreamsGroupHeartbeatResponseView.TaskIds> ids = new ArrayList<>();
        tasks.forEach((sub, partitions) -> ids.add(new StreamsGroupHeartbeatResponseView.TaskIds()
                .subtopologyId(sub).partitions(List.copyOf(partitions))));
        return ids;
    }

    private static List<StreamsGroupHeartbeatResponseView.TopicPartition> topicPartitions(
            Map<String, Set<Integer>> partitions) {
        List<StreamsGroupHeartbeatResponseView.TopicPartition> list = new ArrayList<>();
        partitions.forEach((topic, ps) -> list.add(new StreamsGroupHeartbeatResponseView.TopicPartition()
                .topic(topic).partitions(List.copyOf(ps))));
        return list;
    }
}
