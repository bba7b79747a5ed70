package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.AlterShareGroupOffsetsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * AlterShareGroupOffsets (Admin.alterShareGroupOffsets): sets share partitions' start offsets, forgetting their
 * in-flight records, only while the group has no members (NON_EMPTY_GROUP, as Kafka); a group id no group has yet
 * gets an empty share group first, as Kafka makes one; an empty group id is INVALID_GROUP_ID, an unknown topic or
 * partition UNKNOWN_TOPIC_OR_PARTITION. Answered once the new states are durable.
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
            return CompletableFuture.completedFuture(response.errorCode(Errors.INVALID_GROUP_ID.code()).struct());
        }
        if (membership.status(groupId) == ShareGroupMembership.Status.HAS_MEMBERS) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.NON_EMPTY_GROUP.code())
                    .errorMessage("The group has active members.").struct());
        }
        // As Kafka, a group id no group has yet gets an empty share group, which the offsets then belong to.
        return membership.createIfAbsent(groupId).thenCompose(error -> error == Errors.NONE
                ? alter(groupId, body) : CompletableFuture.completedFuture(new AlterShareGroupOffsetsResponseView()
                        .errorCode(error.code()).errorMessage(error == Errors.GROUP_ID_NOT_FOUND
                                ? "Group " + groupId + " is not a share group." : null).struct()));
    }

    private CompletionStage<Struct> alter(String groupId, AlterShareGroupOffsetsRequestView body) {
        AlterShareGroupOffsetsResponseView response = new AlterShareGroupOffsetsResponseView();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
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
                    SharePartitionKey key = new SharePartitionKey(groupId, metadata.get().id(),
                            partition.partitionIndex());
                    writes.add(manager.reset(key, partition.startOffset()).toCompletableFuture());
                }
            }
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }
}
