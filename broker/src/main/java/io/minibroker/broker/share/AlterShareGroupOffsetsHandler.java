package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterShareGroupOffsets (Admin.alterShareGroupOffsets): sets share partitions' start offsets, forgetting their
 * in-flight records, only while the group has no members (NON_EMPTY_GROUP, as Kafka); an empty group id is
 * INVALID_GROUP_ID, an unknown topic or partition UNKNOWN_TOPIC_OR_PARTITION. The coordinator goes first
 * ({@link ShareGroupMembership#alterOffsets}): as Kafka's, it makes the share group if there is none and lists the
 * partitions as initializing; then their states are reset, and they are initialized (assignable) once the new states
 * are durable. Answered then.
 */
public final class AlterShareGroupOffsetsHandler implements ApiHandler {

    private final SharePartitionManager manager;
    private final ShareGroupMembership membership;
    private final TopicRegistry topics;

    public AlterShareGroupOffsetsHandler(SharePartitionManager manager, ShareGroupMembership membership,
                                         TopicRegistry topics) {
        this.manager = manager;
        this.membership = membership;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AlterShareGroupOffsetsRequestView body = new AlterShareGroupOffsetsRequestView(request.body());
        AlterShareGroupOffsetsResponseView response = new AlterShareGroupOffsetsResponseView();
        String groupId = body.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.INVALID_GROUP_ID.code())
                    .errorMessage(DefaultMessages.of(Errors.INVALID_GROUP_ID)).struct());
        }
        Map<SharePartitionKey, Long> resets = new LinkedHashMap<>();
        for (AlterShareGroupOffsetsRequestView.AlterShareGroupOffsetsRequestTopic topic : body.topics()) {
            Optional<TopicMetadata> metadata = topics.get(topic.topicName());
            var out = response.addResponse().topicName(topic.topicName())
                    .topicId(metadata.map(TopicMetadata::id).orElse(new UUID(0, 0)));
            for (AlterShareGroupOffsetsRequestView.AlterShareGroupOffsetsRequestPartition partition
                    : topic.partitions()) {
                var entry = out.addPartition().partitionIndex(partition.partitionIndex());
                if (metadata.isEmpty() || !metadata.get().hasPartition(partition.partitionIndex())) {
                    entry.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                } else if (partition.startOffset() < 0) {
                    entry.errorCode(Errors.INVALID_REQUEST.code());
                } else {
                    resets.put(new SharePartitionKey(groupId, metadata.get().id(), partition.partitionIndex()),
                            partition.startOffset());
                }
            }
        }
        Map<UUID, Set<Integer>> partitions = new LinkedHashMap<>();
        resets.keySet().forEach(key -> partitions.computeIfAbsent(key.topicId(), id -> new TreeSet<>())
                .add(key.partition()));
        return membership.alterOffsets(groupId, partitions, stateEpoch -> resetAll(resets, stateEpoch))
                .thenApply(outcome -> outcome.error() == Errors.NONE ? response.struct()
                        // the whole request is refused, as Kafka answers it
                        : new AlterShareGroupOffsetsResponseView().errorCode(outcome.error().code())
                                .errorMessage(outcome.message()).struct());
    }

    /** Resets every partition's state to its new start offset; completes once all count. */
    private CompletionStage<Void> resetAll(Map<SharePartitionKey, Long> resets, int stateEpoch) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        resets.forEach((key, offset) -> writes.add(manager.reset(key, offset, stateEpoch).toCompletableFuture()));
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }
}
