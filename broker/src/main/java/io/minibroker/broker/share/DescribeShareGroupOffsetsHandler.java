package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView.DescribeShareGroupOffsetsRequestGroup;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseGroup;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeShareGroupOffsets (Admin.listShareGroupOffsets): each share partition's start offset and, from v1, its lag
 * (KIP-1226: records below the high watermark not yet finished with, the acknowledged and archived ones of the
 * window not counted). A partition without state has start offset -1; an unknown group is GROUP_ID_NOT_FOUND, an
 * unknown topic UNKNOWN_TOPIC_OR_PARTITION, as Kafka answers them. Null topics: every partition with state (those
 * the group's ShareGroupStatePartitionMetadata lists, and any this node holds). Every state is read from its share
 * coordinator as a summary (ReadShareGroupStateSummary), as Kafka's group coordinator reads it; a partition whose
 * state cannot be read is answered with the coordinator's error.
 */
public final class DescribeShareGroupOffsetsHandler implements ApiHandler {

    private final SharePartitionManager manager;
    private final ShareGroupMembership membership;
    private final TopicRegistry topics;
    private final ShareLogs logs;

    public DescribeShareGroupOffsetsHandler(SharePartitionManager manager, ShareGroupMembership membership,
                                            TopicRegistry topics, ShareLogs logs) {
        this.manager = manager;
        this.membership = membership;
        this.topics = topics;
        this.logs = logs;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeShareGroupOffsetsResponseView response = new DescribeShareGroupOffsetsResponseView();
        List<CompletableFuture<Void>> reads = new ArrayList<>(); // each fills in its partition's entry
        for (DescribeShareGroupOffsetsRequestGroup group : new DescribeShareGroupOffsetsRequestView(request.body())
                .groups()) {
            DescribeShareGroupOffsetsResponseGroup described = response.addGroup().groupId(group.groupId());
            if (membership.status(group.groupId()) == ShareGroupMembership.Status.UNKNOWN) {
                described.errorCode(Errors.GROUP_ID_NOT_FOUND.code())
                        .errorMessage("Group " + group.groupId() + " not found.");
                continue;
            }
            for (Map.Entry<String, List<Integer>> topic : wanted(group).entrySet()) {
                Optional<TopicMetadata> metadata = topics.get(topic.getKey());
                DescribeShareGroupOffsetsResponseTopic out = described.addTopic().topicName(topic.getKey())
                        .topicId(metadata.map(TopicMetadata::id).orElse(new UUID(0, 0)));
                for (int partition : topic.getValue()) {
                    // LeaderEpoch 0 unless the state names one: Kafka's generated default, which its group
                    // coordinator leaves on an unknown partition and a failed read.
                    var entry = out.addPartition().partitionIndex(partition).startOffset(-1).leaderEpoch(0).lag(-1);
                    if (metadata.isEmpty() || !metadata.get().hasPartition(partition)) {
                        entry.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                        continue;
                    }
                    SharePartitionKey key = new SharePartitionKey(group.groupId(), metadata.get().id(), partition);
                    reads.add(manager.describe(key).toCompletableFuture().handle((summary, failure) -> {
                        if (failure != null) {
                            entry.errorCode(readError(failure).code());
                        } else {
                            entry.leaderEpoch(summary.leaderEpoch());
                            if (summary.startOffset() >= 0) {
                                entry.startOffset(summary.startOffset());
                                ShareLogs.Resolved resolved = logs.resolve(key.topicId(), partition);
                                if (resolved.log() != null) {
                                    entry.lag(Math.max(0, resolved.log().highWatermark() - summary.startOffset()
                                            - Math.max(0, summary.deliveryCompleteCount())));
                                }
                            }
                        }
                        return null;
                    }));
                }
            }
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }

    /** The partitions asked for by name, or with null topics every share partition of the group with state. */
    private Map<String, List<Integer>> wanted(DescribeShareGroupOffsetsRequestGroup group) {
        Map<String, List<Integer>> wanted = new TreeMap<>();
        if (group.topics() != null) {
            group.topics().forEach(t -> wanted.computeIfAbsent(t.topicName(), n -> new ArrayList<>())
                    .addAll(t.partitions()));
            return wanted;
        }
        Map<UUID, Set<Integer>> withState = new HashMap<>();
        membership.statePartitions(group.groupId()).forEach((topicId, partitions) ->
                withState.computeIfAbsent(topicId, id -> new TreeSet<>()).addAll(partitions));
        for (SharePartitionKey key : manager.keysOf(group.groupId())) {
            withState.computeIfAbsent(key.topicId(), id -> new TreeSet<>()).add(key.partition());
        }
        withState.forEach((topicId, partitions) -> topics.nameOf(topicId).ifPresent(name ->
                wanted.computeIfAbsent(name, n -> new ArrayList<>()).addAll(partitions)));
        wanted.values().forEach(list -> list.sort(Integer::compare));
        return wanted;
    }

    /** The share coordinator's error for a state it could not read (an unexpected failure: UNKNOWN_SERVER_ERROR). */
    private static Errors readError(Throwable failure) {
        return Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR);
    }
}
