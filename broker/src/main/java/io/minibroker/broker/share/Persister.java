package io.minibroker.broker.share;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Where share partitions' state is kept across restarts and leadership moves (Kafka's Persister, whose default
 * reads and writes it through the share coordinator, in {@code __share_group_state}). Everything completes off the
 * caller's thread; a failure carries the coordinator's error in a {@link io.minibroker.broker.log.LogException}.
 * Each call names the leader epoch of the partition its caller leads: the coordinator refuses a write from a leader
 * older than the last it heard from (FENCED_LEADER_EPOCH), so a node that lost a partition's leadership cannot
 * overwrite the state its new leader works on.
 */
public interface Persister {

    /**
     * An administrator's read or write (DescribeShareGroupOffsets, AlterShareGroupOffsets), from no share partition's
     * leader: never fenced, and a read fences no leader.
     */
    int NO_LEADER_EPOCH = -1;

    /** The share partition's state, or empty if it has none yet; a leader reads it before serving the partition. */
    CompletionStage<Optional<ShareStateSnapshot>> read(SharePartitionKey key, int leaderEpoch);

    /** Writes {@code snapshot} as the state of {@code key}; completes once it counts. */
    CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch);

    /** Forgets the state of {@code key} (DeleteShareGroupOffsets); completes once that counts. */
    CompletionStage<Void> delete(SharePartitionKey key);
}
