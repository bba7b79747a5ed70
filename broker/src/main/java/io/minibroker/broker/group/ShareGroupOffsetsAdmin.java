package io.minibroker.broker.group;

import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * The coordinator's part of the share-group offsets admin APIs ({@link ShareGroupMembership}, what the delivery
 * side's handlers ask): whether a share group exists and has members, the partitions it has state for, and record 15's
 * changes around AlterShareGroupOffsets (its partitions initializing until their resets count, the group made if
 * there is none, as Kafka's GroupMetadataManager does) and DeleteShareGroupOffsets (topics deleting until their
 * state is gone).
 */
final class ShareGroupOffsetsAdmin implements ShareGroupMembership {

    private final ShareGroups groups;
    private final GroupTypes types;
    private final CoordinatorThread thread;
    private final TopicRegistry topics;
    private final ShareGroupStateInitializer states;

    ShareGroupOffsetsAdmin(ShareGroups groups, GroupTypes types, CoordinatorThread thread, TopicRegistry topics,
                           ShareGroupStateInitializer states) {
        this.groups = groups;
        this.types = types;
        this.thread = thread;
        this.topics = topics;
        this.states = states;
    }

    @Override
    public Map<UUID, Set<Integer>> statePartitions(String groupId) {
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return Map.of();
        }
        synchronized (group) {
            if (group.statePartitions == null) {
                return Map.of();
            }
            Map<UUID, Set<Integer>> partitions = new LinkedHashMap<>();
            group.statePartitions.initialized.forEach((topicId, topic) ->
                    partitions.put(topicId, Set.copyOf(topic.partitions())));
            return partitions;
        }
    }

    @Override
    public CompletionStage<Outcome> alterOffsets(String groupId, Map<UUID, Set<Integer>> partitions,
                                                 IntFunction<CompletionStage<Void>> reset) {
        return thread.compose(() -> {
            Errors notHere = groups.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                return completedFuture(new Outcome(notHere, null));
            }
            String anotherType = types.notA(GroupType.SHARE, groupId);
            if (anotherType != null) {
                return completedFuture(new Outcome(Errors.GROUP_ID_NOT_FOUND, anotherType));
            }
            boolean made = groups.get(groupId) == null;
            ShareGroup group = groups.getOrCreate(groupId); // if none, an empty one, as Kafka
            synchronized (group) {
                if (group.isDead()) { // deleted or unloaded meanwhile: the client retries
                    return completedFuture(new Outcome(Errors.COORDINATOR_NOT_AVAILABLE, null));
                }
                if (!group.members.isEmpty()) {
                    // Kafka's message
                    return completedFuture(new Outcome(Errors.NON_EMPTY_GROUP, "The group is not empty."));
                }
                Map<UUID, Set<Integer>> altered = states.startInitializing(group, partitions);
                // As Kafka, the altered partitions' state is initialized with the group's epoch as its state epoch.
                int stateEpoch = group.groupEpoch;
                // Kafka's failed write leaves no group behind either. The write completes on whichever thread
                // finished it; like every change to the groups, forgetting one is made on the coordinator thread.
                return written(group).thenCompose(outcome -> {
                    if (outcome.error() == Errors.NONE) {
                        return states.whenStateCounts(group, altered, reset.apply(stateEpoch), false)
                                .thenApply(recorded -> Outcome.NONE);
                    }
                    return made ? thread.supply(() -> {
                        groups.forgetIfUnwritten(group);
                        return outcome;
                    }) : completedFuture(outcome);
                });
            }
        });
    }

    @Override
    public CompletionStage<OffsetsDeletion> startOffsetsDeletion(String groupId, Set<UUID> topicIds) {
        return thread.compose(() -> {
            Errors notHere = groups.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                return completedFuture(new OffsetsDeletion(new Outcome(notHere, null), Map.of()));
            }
            ShareGroup group = groups.get(groupId);
            if (group == null) {
                return completedFuture(notFound(groupId));
            }
            synchronized (group) {
                if (group.isDead()) {
                    return completedFuture(notFound(groupId));
                }
                // Here, not before: checked and written in one operation, a member cannot join in between.
                if (group.state() != ShareGroup.State.EMPTY) {
                    return completedFuture(new OffsetsDeletion(new Outcome(Errors.NON_EMPTY_GROUP, null), Map.of()));
                }
                if (group.statePartitions == null) {
                    return completedFuture(new OffsetsDeletion(Outcome.NONE, Map.of()));
                }
                Map<UUID, Set<Integer>> eligible = group.statePartitions.startDeleting(topicIds,
                        topicId -> topics.known(topicId).map(TopicMetadata::partitions));
                return written(group).thenApply(outcome -> new OffsetsDeletion(outcome,
                        outcome.error() == Errors.NONE ? eligible : Map.of()));
            }
        });
    }

    @Override
    public CompletionStage<Outcome> offsetsDeleted(String groupId, Set<UUID> topicIds) {
        return thread.compose(() -> {
            ShareGroup group = groups.get(groupId);
            if (group == null) {
                return completedFuture(new Outcome(Errors.GROUP_ID_NOT_FOUND, null));
            }
            synchronized (group) {
                if (group.isDead()) { // deleted meanwhile: writing its record 15 would make it again on replay
                    return completedFuture(new Outcome(Errors.GROUP_ID_NOT_FOUND, null));
                }
                if (group.statePartitions == null) {
                    return completedFuture(Outcome.NONE);
                }
                group.statePartitions.deleted(topicIds);
                return written(group);
            }
        });
    }

    /** Kafka's refusal of a deletion for a group id no share group has: not found, or of another type. */
    private OffsetsDeletion notFound(String groupId) {
        return new OffsetsDeletion(new Outcome(Errors.GROUP_ID_NOT_FOUND, types.notFound(GroupType.SHARE, groupId)),
                Map.of());
    }

    /** Writes the group's changes, answering the admin API once they count; the caller holds its lock. */
    private CompletableFuture<Outcome> written(ShareGroup group) {
        return groups.write(group).handle((offset, failure) -> failure == null ? Outcome.NONE
                : new Outcome(CoordinatorWriteErrors.answerFor(failure), null));
    }
}
