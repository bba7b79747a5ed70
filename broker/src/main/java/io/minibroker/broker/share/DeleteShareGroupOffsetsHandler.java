package io.minibroker.broker.share;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupOffsetsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashSet;
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
 * DeleteShareGroupOffsets (Admin.deleteShareGroupOffsets): forgets a group's state of whole topics, so that its next
 * fetch starts where {@code share.auto.offset.reset} says; only while the group has no members. As Kafka's group
 * coordinator: the request's errors are INVALID_GROUP_ID, GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP; a topic the cluster
 * does not know is UNKNOWN_TOPIC_OR_PARTITION, and so is one the group has no initialized (or deleting) state of,
 * "There is no offset information to delete."; the others move to deleting in the group's record of them
 * ({@link ShareGroupMembership#startOffsetsDeletion}), their state is deleted (at the share coordinators, and from
 * this node's memory), and those whose deletion succeeded leave the record
 * ({@link ShareGroupMembership#offsetsDeleted}); a topic whose deletion failed is answered the share coordinator's
 * error and stays deleting, so a later request deletes every partition of it.
 */
public final class DeleteShareGroupOffsetsHandler implements ApiHandler {

    /** Kafka's message for a topic of the request the group has no state of. */
    static final String NO_OFFSETS = "There is no offset information to delete.";

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
        if (groupId == null || groupId.isEmpty()) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.INVALID_GROUP_ID.code())
                    .errorMessage(DefaultMessages.of(Errors.INVALID_GROUP_ID)).struct());
        }
        Map<UUID, DeleteShareGroupOffsetsResponseView.DeleteShareGroupOffsetsResponseTopic> known =
                new LinkedHashMap<>();
        for (DeleteShareGroupOffsetsRequestView.DeleteShareGroupOffsetsRequestTopic topic : body.topics()) {
            Optional<TopicMetadata> metadata = topics.get(topic.topicName());
            var out = response.addResponse().topicName(topic.topicName())
                    .topicId(metadata.map(TopicMetadata::id).orElse(new UUID(0, 0)));
            if (metadata.isEmpty()) {
                out.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).errorMessage(DefaultMessages.of(Errors.UNKNOWN_TOPIC_OR_PARTITION));
            } else {
                known.put(metadata.get().id(), out);
            }
        }
        return membership.startOffsetsDeletion(groupId, known.keySet()).thenCompose(start -> {
            if (start.outcome().error() != Errors.NONE) { // the group's error alone, no topics, as Kafka answers
                return CompletableFuture.completedFuture(new DeleteShareGroupOffsetsResponseView()
                        .errorCode(start.outcome().error().code()).errorMessage(start.outcome().message()).struct());
            }
            Map<UUID, CompletableFuture<Errors>> deletions = new LinkedHashMap<>();
            start.partitions().forEach((topicId, partitions) -> deletions.put(topicId, forget(groupId, topicId,
                    partitions)));
            return CompletableFuture.allOf(deletions.values().toArray(CompletableFuture[]::new)).thenCompose(done -> {
                Set<UUID> deleted = new HashSet<>();
                deletions.forEach((topicId, deletion) -> {
                    if (deletion.join() == Errors.NONE) {
                        deleted.add(topicId);
                    }
                });
                return membership.offsetsDeleted(groupId, deleted).thenApply(outcome -> {
                    known.forEach((topicId, out) -> {
                        CompletableFuture<Errors> deletion = deletions.get(topicId);
                        if (deletion == null) {
                            out.errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()).errorMessage(NO_OFFSETS);
                        } else {
                            out.errorCode(deletion.join().code());
                        }
                    });
                    return response.errorCode(outcome.error().code()).errorMessage(outcome.message()).struct();
                });
            });
        });
    }

    /**
     * Deletes the state of a topic's partitions, and of those of it this node has loaded, here and at the share
     * coordinators: NONE, or the first failure's error.
     */
    private CompletableFuture<Errors> forget(String groupId, UUID topicId, Set<Integer> partitions) {
        Set<Integer> all = new TreeSet<>(partitions);
        manager.keysOf(groupId).stream().filter(key -> key.topicId().equals(topicId))
                .forEach(key -> all.add(key.partition()));
        List<CompletableFuture<Errors>> writes = new ArrayList<>();
        all.forEach(partition -> writes.add(manager.forget(new SharePartitionKey(groupId, topicId, partition))
                .toCompletableFuture().handle((ok, failure) -> failure == null ? Errors.NONE
                        : Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR))));
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(done -> writes.stream()
                .map(CompletableFuture::join).filter(error -> error != Errors.NONE).findFirst().orElse(Errors.NONE));
    }
}
