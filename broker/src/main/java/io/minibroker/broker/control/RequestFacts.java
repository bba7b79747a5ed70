package io.minibroker.broker.control;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddOffsetsToTxnRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.HeartbeatRequestView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.LeaveGroupRequestView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * What the controls know of a request to match rules and log it: its API, version, client id, correlation id,
 * connection, the topics and partitions it names and the groups it is about. Topics and groups are read for the
 * APIs users aim faults at (the data path, the classic group protocol, the consumer and share groups' heartbeats
 * and a transaction's offsets); for the others they are empty, and such a request matches only rules that name
 * neither. A topic sent by id is named by the broker's metadata.
 *
 * @param connection the client's address as the broker sees it, {@code host:port}
 * @param topics each topic named, with the partitions named for it (empty when the request names none)
 */
public record RequestFacts(ApiKey api, short version, String clientId, int correlationId, String connection,
                           Map<String, List<Integer>> topics, List<String> groups) {

    /** FindCoordinator's key type for a group (the other is a transactional id). */
    private static final byte GROUP_KEY = 0;

    static RequestFacts of(Request request, String connection, Function<UUID, Optional<String>> topicNames) {
        Map<String, List<Integer>> topics = new LinkedHashMap<>();
        List<String> groups = new ArrayList<>(1);
        Naming names = new Naming(topicNames);
        switch (request.api()) {
            case PRODUCE -> new ProduceRequestView(request.body()).topicData().forEach(topic -> topics.put(
                    names.of(topic.name(), topic.topicId()),
                    topic.partitionData().stream().map(ProduceRequestView.PartitionProduceData::index).toList()));
            case FETCH -> new FetchRequestView(request.body()).topics().forEach(topic -> topics.put(
                    names.of(topic.topic(), topic.topicId()),
                    topic.partitions().stream().map(FetchRequestView.FetchPartition::partition).toList()));
            case LIST_OFFSETS -> new ListOffsetsRequestView(request.body()).topics().forEach(topic -> topics.put(
                    topic.name(),
                    topic.partitions().stream().map(ListOffsetsRequestView.ListOffsetsPartition::partitionIndex)
                            .toList()));
            case METADATA -> {
                List<MetadataRequestView.MetadataRequestTopic> asked = new MetadataRequestView(request.body()).topics();
                if (asked != null) {
                    asked.forEach(topic -> topics.put(names.of(topic.name(), topic.topicId()), List.of()));
                }
            }
            case OFFSET_COMMIT -> {
                OffsetCommitRequestView commit = new OffsetCommitRequestView(request.body());
                groups.add(commit.groupId());
                commit.topics().forEach(topic -> topics.put(names.of(topic.name(), topic.topicId()),
                        topic.partitions().stream()
                                .map(OffsetCommitRequestView.OffsetCommitRequestPartition::partitionIndex).toList()));
            }
            case OFFSET_FETCH -> offsetFetch(new OffsetFetchRequestView(request.body()), request.version(), names,
                    topics, groups);
            case TXN_OFFSET_COMMIT -> {
                TxnOffsetCommitRequestView commit = new TxnOffsetCommitRequestView(request.body());
                groups.add(commit.groupId());
                commit.topics().forEach(topic -> topics.put(names.of(topic.name(), topic.topicId()),
                        topic.partitions().stream()
                                .map(TxnOffsetCommitRequestView.TxnOffsetCommitRequestPartition::partitionIndex)
                                .toList()));
            }
            case ADD_OFFSETS_TO_TXN -> groups.add(new AddOffsetsToTxnRequestView(request.body()).groupId());
            case CONSUMER_GROUP_HEARTBEAT ->
                    groups.add(new ConsumerGroupHeartbeatRequestView(request.body()).groupId());
            case SHARE_GROUP_HEARTBEAT -> groups.add(new ShareGroupHeartbeatRequestView(request.body()).groupId());
            case STREAMS_GROUP_HEARTBEAT ->
                    groups.add(new StreamsGroupHeartbeatRequestView(request.body()).groupId());
            case JOIN_GROUP -> groups.add(new JoinGroupRequestView(request.body()).groupId());
            case SYNC_GROUP -> groups.add(new SyncGroupRequestView(request.body()).groupId());
            case HEARTBEAT -> groups.add(new HeartbeatRequestView(request.body()).groupId());
            case LEAVE_GROUP -> groups.add(new LeaveGroupRequestView(request.body()).groupId());
            case FIND_COORDINATOR -> {
                FindCoordinatorRequestView find = new FindCoordinatorRequestView(request.body());
                if (find.keyType() == GROUP_KEY) {
                    if (request.version() < 4) {
                        groups.add(find.key());
                    } else {
                        groups.addAll(find.coordinatorKeys());
                    }
                }
            }
            default -> { }
        }
        return new RequestFacts(request.api(), request.version(), request.header().clientId(),
                request.header().correlationId(), connection, topics, groups);
    }

    /** OffsetFetch names one group up to v7 and a batch of groups from v8. */
    private static void offsetFetch(OffsetFetchRequestView fetch, short version, Naming names,
                                    Map<String, List<Integer>> topics, List<String> groups) {
        if (version < 8) {
            groups.add(fetch.groupId());
            if (fetch.topics() != null) {
                fetch.topics().forEach(topic -> topics.put(topic.name(), topic.partitionIndexes()));
            }
            return;
        }
        for (OffsetFetchRequestView.OffsetFetchRequestGroup group : fetch.groups()) {
            groups.add(group.groupId());
            if (group.topics() != null) {
                group.topics().forEach(topic -> topics.put(names.of(topic.name(), topic.topicId()),
                        topic.partitionIndexes()));
            }
        }
    }

    /** Whether the request names this topic (and, when {@code partition} is not null, this partition of it). */
    public boolean names(String topic, Integer partition) {
        List<Integer> partitions = topics.get(topic);
        return partitions != null && (partition == null || partitions.contains(partition));
    }

    /** A topic's name, from the request or, for one sent by id, from the broker's metadata. */
    private record Naming(Function<UUID, Optional<String>> byId) {
        String of(String name, UUID id) {
            if (name != null && !name.isEmpty()) {
                return name;
            }
            return id == null ? "" : byId.apply(id).orElse(id.toString());
        }
    }
}
