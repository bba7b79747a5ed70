package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.share.ShareStateDeletion;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteGroups of a share group, as Kafka's GroupCoordinatorService: NON_EMPTY_GROUP while it has members; else
 * its record 15's topics move to deleting (Kafka's shareGroupBuildPartitionDeleteRequest), written before the
 * share coordinators are asked to delete the state of their partitions (and of those the delivery side holds,
 * {@link ShareStateDeletion}), and only once that counts are its records tombstoned and the group forgotten, answered
 * once that write counts. A failed write of record 15 is answered as the group's other writes; a failed state
 * deletion keeps the group, its topics deleting (so the next DeleteGroups asks for every partition of them, as
 * Kafka's does), and answers the error the share coordinator gave (Kafka's per-partition error of
 * DeleteShareGroupState), UNKNOWN_SERVER_ERROR for any other failure.
 */
final class ShareGroupDeletion {

    private final ShareGroups groups;
    private final CoordinatorThread thread;
    private final TopicRegistry topics;
    /** The delivery side's, known once the broker has made both; none for the membership side alone. */
    private volatile ShareStateDeletion stateDeletion = ShareStateDeletion.NONE;

    ShareGroupDeletion(ShareGroups groups, CoordinatorThread thread, TopicRegistry topics) {
        this.groups = groups;
        this.thread = thread;
        this.topics = topics;
    }

    /** How DeleteGroups deletes a share group's share-partition state first. */
    void deleteStateWith(ShareStateDeletion deletion) {
        this.stateDeletion = deletion;
    }

    CompletableFuture<Errors> delete(String groupId) {
        return thread.compose(() -> {
            ShareGroup group = deletable(groupId);
            if (group == null) {
                return CompletableFuture.completedFuture(deletableError(groupId));
            }
            Map<UUID, Set<Integer>> partitions;
            CompletableFuture<Long> deleting;
            synchronized (group) {
                partitions = withState(group);
                if (group.statePartitions != null) {
                    group.statePartitions.startDeletingAll(topicId -> topics.known(topicId).map(TopicMetadata::name));
                }
                deleting = groups.write(group);
            }
            return deleting.handle((offset, failure) -> failure == null ? Errors.NONE
                            : CoordinatorWriteErrors.answerFor(failure))
                    .thenCompose(written -> written != Errors.NONE ? CompletableFuture.completedFuture(written)
                            : stateDeletion.deleteState(groupId, partitions).toCompletableFuture().handle((ok, failure) ->
                                    failure == null ? Errors.NONE
                                            : Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR)))
                    .thenCompose(error -> error != Errors.NONE ? CompletableFuture.completedFuture(error)
                            : thread.compose(() -> deleteRecords(groupId)));
        });
    }

    /** The share group DeleteGroups may delete now (on the coordinator's thread), or null. */
    private ShareGroup deletable(String groupId) {
        return deletableError(groupId) == Errors.NONE ? groups.get(groupId) : null;
    }

    private Errors deletableError(String groupId) {
        Errors notHere = groups.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        synchronized (group) {
            return group.isDead() ? Errors.GROUP_ID_NOT_FOUND
                    : group.members.isEmpty() ? Errors.NONE : Errors.NON_EMPTY_GROUP;
        }
    }

    /**
     * The share partitions the group has state for, as Kafka's shareGroupBuildPartitionDeleteRequest lists them:
     * its initializing and initialized topics' partitions, and every partition of a topic being deleted.
     */
    private Map<UUID, Set<Integer>> withState(ShareGroup group) {
        Map<UUID, Set<Integer>> partitions = new LinkedHashMap<>();
        ShareGroupStatePartitions state = group.statePartitions;
        if (state == null) {
            return partitions;
        }
        state.initializing.forEach((topicId, topic) -> partitions.computeIfAbsent(topicId, id -> new TreeSet<>())
                .addAll(topic.partitions()));
        state.initialized.forEach((topicId, topic) -> partitions.computeIfAbsent(topicId, id -> new TreeSet<>())
                .addAll(topic.partitions()));
        state.deleting.keySet().forEach(topicId -> topics.known(topicId).ifPresent(topic ->
                partitions.computeIfAbsent(topicId, id -> new TreeSet<>()).addAll(partitionsUpTo(topic.partitions()))));
        return partitions;
    }

    private static Set<Integer> partitionsUpTo(int count) {
        Set<Integer> partitions = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            partitions.add(i);
        }
        return partitions;
    }

    /**
     * The group's state is gone: tombstones for its records, and it is forgotten. Checked again, as Kafka's
     * deleteGroups validates the group once more: a member may have joined while the state was being deleted.
     */
    private CompletableFuture<Errors> deleteRecords(String groupId) {
        ShareGroup group = deletable(groupId);
        if (group == null) {
            return CompletableFuture.completedFuture(deletableError(groupId));
        }
        CompletableFuture<Long> written;
        synchronized (group) {
            written = groups.tombstone(group);
        }
        return written.handle((offset, failure) -> failure == null ? Errors.NONE
                : CoordinatorWriteErrors.answerFor(failure));
    }
}
