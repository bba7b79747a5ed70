package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsRequestView.DescribeShareGroupOffsetsRequestGroup;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseGroup;
import io.minibroker.protocol.message.view.DescribeShareGroupOffsetsResponseView.DescribeShareGroupOffsetsResponseTopic;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.Comparator;
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
 * window not counted). As Kafka 4.3.1's group coordinator, which asks the share coordinators whatever the group: a
 * partition without state, of a group that does not exist or is of another type, of a topic the cluster does not
 * know (answered with the zero topic id) or past the topic's partitions, is answered start offset -1, no error
 * (Kafka reaches the same answer for a partition past the topic's only after its persister's retries); the topics
 * this broker knows are answered first. Null topics: every partition with state (those the group's
 * ShareGroupStatePartitionMetadata lists, and any this node holds), none for a group that is not a share group.
 * Every state is read from its share coordinator as a summary (ReadShareGroupStateSummary), as Kafka's group
 * coordinator reads it; a partition whose state cannot be read is answered with the coordinator's error. An empty
 * group id with topics named is UNKNOWN_SERVER_ERROR for the group, as Kafka's persister fails it.
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
            if (group.groupId().isEmpty() && group.topics() != null) {
                described.errorCode(Errors.UNKNOWN_SERVER_ERROR.code())
                        .errorMessage(DefaultMessages.of(Errors.UNKNOWN_SERVER_ERROR));
                continue;
            }
            Map<String, List<Integer>> wanted = wanted(group);
            List<String> knownFirst = new ArrayList<>(wanted.keySet());
            knownFirst.sort(Comparator.comparing(name -> topics.get(name).isEmpty()));
            for (String name : knownFirst) {
                Optional<TopicMetadata> metadata = topics.get(name);
                DescribeShareGroupOffsetsResponseTopic out = described.addTopic().topicName(name)
                        .topicId(metadata.map(TopicMetadata::id).orElse(TopicIds.ZERO));
                for (int partition : wanted.get(name)) {
                    // LeaderEpoch 0 unless the state names one: Kafka's generated default, which its group
                    // coordinator leaves on a partition without state and a failed read.
                    var entry = out.addPartition().partitionIndex(partition).startOffset(-1).leaderEpoch(0).lag(-1);
                    if (metadata.isEmpty() || !metadata.get().hasPartition(partition)) {
                        continue; // no state can exist
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
