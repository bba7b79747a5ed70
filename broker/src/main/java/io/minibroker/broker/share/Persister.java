package io.minibroker.broker.share;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Where share partitions' state is kept across restarts (Kafka's Persister, whose default writes
 * {@code __share_group_state}). Writes complete off the caller's thread; a later write of a key supersedes an
 * earlier one still pending.
 */
public interface Persister {

    /** Every share partition's last written state, read once before the broker serves. */
    Map<SharePartitionKey, ShareStateSnapshot> readAll();

    /** Writes {@code snapshot} as the state of {@code key}; completes once it is durable. */
    CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot);

    /** Forgets the state of {@code key} (DeleteShareGroupOffsets); completes once that is durable. */
    CompletionStage<Void> delete(SharePartitionKey key);
}
