package io.minibroker.broker.share;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * Where share partitions' state is kept across restarts and leadership moves (Kafka's Persister, whose default
 * reads and writes it through the share coordinator, in {@code __share_group_state}). Everything completes off the
 * caller's thread; a failure carries the coordinator's error in a {@link io.minibroker.broker.log.LogException}.
 * A leader's read and writes name the leader epoch of the partition it leads, and its writes the state epoch its
 * read returned: the coordinator refuses a leader older than the last it heard from (FENCED_LEADER_EPOCH), so a node
 * that lost a partition's leadership cannot overwrite the state its new leader works on, and a write made on a state
 * initialized again since (AlterShareGroupOffsets: FENCED_STATE_EPOCH), so a reset is not undone by a leader that
 * loaded the state before it.
 */
public interface Persister {

    /**
     * A leader epoch not given (ReadShareGroupStateSummary's, an administrator's read; also a share partition's
     * before it is loaded): as Kafka's share coordinator takes it in a read or write, never fenced, and a read with it
     * fences no later leader.
     */
    int NO_LEADER_EPOCH = -1;

    /**
     * A state epoch not given (a share partition's before it is loaded, an outcome that initializes no state): in a
     * write, not checked, the stored one kept.
     */
    int NO_STATE_EPOCH = -1;

    /**
     * An initialized state's start offset when none is set (Kafka's UNINITIALIZED_START_OFFSET): the group
     * coordinator's initialization before a partition is assigned; its leader starts where
     * {@code share.auto.offset.reset} says at its first fetch.
     */
    long NO_START_OFFSET = -1;

    /** A share partition's state as read by its leader: the snapshot (null when it has none) and its state epoch. */
    record State(ShareStateSnapshot snapshot, int stateEpoch) {
    }

    /**
     * What an administrator sees of a share partition's state (ReadShareGroupStateSummary): its start offset (-1 when
     * it has none), the leader epoch its last writer held (0 when it has none, as Kafka's share coordinator answers)
     * and how many offsets from there on are delivered for good (acknowledged or archived).
     */
    record Summary(long startOffset, int leaderEpoch, long deliveryCompleteCount) {
    }

    /** The share partition's state; a leader reads it before serving the partition. */
    CompletionStage<State> read(SharePartitionKey key, int leaderEpoch);

    /** Writes {@code snapshot} as the state of {@code key}; completes once it counts. */
    CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch, int stateEpoch);

    /**
     * Replaces the state of {@code key} with one starting at {@code startOffset} with nothing in flight, under a new
     * state epoch (InitializeShareGroupState; AlterShareGroupOffsets); completes once that counts.
     */
    default CompletionStage<Void> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return initialize(key.groupId(), Map.of(key.topicId(), Set.of(key.partition())), stateEpoch, startOffset);
    }

    /**
     * {@link #initialize(SharePartitionKey, int, long)} for several share partitions of a group ({@code partitions}:
     * the partition numbers by topic id), asking each share coordinator once for all of those it holds, as Kafka's
     * persister batches a group's partitions per coordinator node; completes once every one counts, or fails with
     * the error of one that did not.
     */
    CompletionStage<Void> initialize(String groupId, Map<UUID, Set<Integer>> partitions, int stateEpoch,
                                     long startOffset);

    /** The state's start offset and completed deliveries, for an administrator (ReadShareGroupStateSummary). */
    CompletionStage<Summary> summary(SharePartitionKey key);

    /** Forgets the state of {@code key} (DeleteShareGroupOffsets); completes once that counts. */
    CompletionStage<Void> delete(SharePartitionKey key);
}
