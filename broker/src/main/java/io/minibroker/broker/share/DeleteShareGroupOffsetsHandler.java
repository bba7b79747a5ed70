package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DeleteShareGroupOffsets (Admin.deleteShareGroupOffsets): forgets a group's state of whole topics, so that its next
 * fetch starts where {@code share.auto.offset.reset} says; only while the group has no members. Kafka's errors:
 * INVALID_GROUP_ID, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP for the request, UNKNOWN_TOPIC_OR_PARTITION for a topic.
 * Once the states are gone the coordinator drops the topics from the group's record of them
 * ({@link ShareGroupMembership#offsetsDeleted}).
 */
public final class DeleteShareGroupOffsetsHandler implements ApiHandler {

    private final SharePartitionManager manager;
    private final ShareGroupMembership membership;
    private final TopicRegistry topics;

    public DeleteShareGroupOffsetsHandler(SharePartitionManager manager, ShareGroupMembership membership,
                                          TopicRegistry topics) {
        this.manager = manager;
        this.membership = membership;
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DeleteShareGroupOffsetsRequestView body = new DeleteShareGroupOffsetsRequestView(request.body());
        DeleteShareGroupOffsetsResponseView response = new DeleteShareGroupOffsetsResponseView();
        String groupId = body.groupId();
        Errors refused = groupId == null || groupId.isEmpty() ? Errors.INVALID_GROUP_ID
                : switch (membership.status(groupId)) {
                    case UNKNOWN -> Errors.GROUP_ID_NOT_FOUND;
                    case HAS_MEMBERS -> Errors.NON_EMPTY_GROUP;
                    case EMPTY -> Errors.NONE;
                };
        if (refused != Errors.NONE) {
            return CompletableFuture.completedFuture(response.errorCode(refused.code()).struct());
        }
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        Set<UUID> deleted = new HashSet<>();
        // Not only the share partitions this node has loaded: the share coordinator also holds the state of those
        // the group's ShareGroupStatePartitionMetadata lists (led elsewhere, or not fetched since a restart).
        Map<UUID, Set<Integer>> withState = membership.statePartitions(groupId);
        for (DeleteShareGroupOffsetsRequestView.DeleteShareGroupOffsetsRequestTopic topic : body.topics()) {
            Optional<TopicMetadata> metadata = topics.get(topic.topicName());
            var out = response.addResponse().topicName(topic.topicName())
                    .topicId(metadata.map(TopicMetadata::id).orElse(new UUID(0, 0)));
            if (metadata.isEmpty()) {
                out.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                continue;
            }
            UUID topicId = metadata.get().id();
            Set<Integer> partitions = new TreeSet<>(withState.getOrDefault(topicId, Set.of()));
            manager.keysOf(groupId).stream().filter(key -> key.topicId().equals(topicId))
                    .forEach(key -> partitions.add(key.partition()));
            partitions.forEach(partition -> writes.add(manager.forget(new SharePartitionKey(groupId, topicId, partition))
                    .toCompletableFuture()));
            deleted.add(topicId);
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                .thenCompose(done -> membership.offsetsDeleted(groupId, deleted))
                .thenApply(outcome -> response.errorCode(outcome.error().code()).errorMessage(outcome.message())
                        .struct());
    }
}
