package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * What the share-group offsets admin APIs ask of the membership side ({@code group/GroupCoordinator
 * .shareGroupMembership}): the partitions a share group has state for, and the coordinator's part of altering and
 * deleting its offsets, which refuses a group that does not exist or has members (Kafka: GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP). As in Kafka, a group exists only once the coordinator knows it, whatever share sessions or share
 * state the data side has.
 */
public interface ShareGroupMembership {

    /** The coordinator's answer: NONE, or the error (with Kafka's message) the whole request gets. */
    record Outcome(Errors error, String message) {
        public static final Outcome NONE = new Outcome(Errors.NONE, null);
    }

    /**
     * AlterShareGroupOffsets at the coordinator, before the data side resets the partitions (Kafka's
     * GroupMetadataManager.alterShareGroupOffsets): the share group is made if there is none, refused if it has
     * members (NON_EMPTY_GROUP) or the id is another type's (GROUP_ID_NOT_FOUND), and lists these partitions (by
     * topic id) as initializing; once that is written, {@code reset} resets their state with the state epoch given,
     * and once that counts they are initialized (Kafka's completeAlterShareGroupOffsets, then persisterInitialize).
     * Completes once they are recorded as initialized, or with the reset's failure (they stay initializing).
     */
    CompletionStage<Outcome> alterOffsets(String groupId, Map<UUID, Set<Integer>> partitions,
                                          IntFunction<CompletionStage<Void>> reset);

    /**
     * The coordinator's answer to a DeleteShareGroupOffsets about to delete state: NONE with the partitions (by topic
     * id) whose state is to be deleted, or the error the whole request gets.
     */
    record OffsetsDeletion(Outcome outcome, Map<UUID, Set<Integer>> partitions) {
    }

    /**
     * DeleteShareGroupOffsets at the coordinator, before the state is deleted (Kafka's
     * sharePartitionsEligibleForOffsetDeletion): of these topics (by id), those initialized (their initialized
     * partitions) and those already deleting (every partition) move to deleting, written before this completes; the
     * others have no offset information to delete and are not among the partitions answered.
     */
    CompletionStage<OffsetsDeletion> startOffsetsDeletion(String groupId, Set<UUID> topicIds);

    /**
     * DeleteShareGroupOffsets deleted the state of these deleting topics' partitions: they leave the group's record
     * (Kafka's completeDeleteShareGroupOffsets).
     */
    CompletionStage<Outcome> offsetsDeleted(String groupId, Set<UUID> topicIds);

    /**
     * The share partitions the group has state for, by topic id (its ShareGroupStatePartitionMetadata's initialized
     * topics, as Kafka's DescribeShareGroupOffsets lists them when asked for every topic); empty for an unknown group.
     */
    Map<UUID, Set<Integer>> statePartitions(String groupId);

    /** One that answers with {@code membership}'s, made after this one (the coordinator after the data side). */
    static ShareGroupMembership deferred(Supplier<ShareGroupMembership> membership) {
        return new ShareGroupMembership() {
            @Override
            public CompletionStage<Outcome> alterOffsets(String groupId, Map<UUID, Set<Integer>> partitions,
                                                         IntFunction<CompletionStage<Void>> reset) {
                return membership.get().alterOffsets(groupId, partitions, reset);
            }

            @Override
            public CompletionStage<OffsetsDeletion> startOffsetsDeletion(String groupId, Set<UUID> topicIds) {
                return membership.get().startOffsetsDeletion(groupId, topicIds);
            }

            @Override
            public CompletionStage<Outcome> offsetsDeleted(String groupId, Set<UUID> topicIds) {
                return membership.get().offsetsDeleted(groupId, topicIds);
            }

            @Override
            public Map<UUID, Set<Integer>> statePartitions(String groupId) {
                return membership.get().statePartitions(groupId);
            }
        };
    }
}
