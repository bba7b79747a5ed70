package io.minibroker.broker.transaction;

import java.util.concurrent.CompletableFuture;

/**
 * Where the coordinator keeps transactional ids' state: the partitions of {@code __transaction_state}. One job:
 * write a record (Kafka's TransactionStateManager.appendTransactionToLog, which counts once durable) and replay a
 * partition (its loadTransactionMetadata). The coordinator calls both on its own thread.
 */
public interface TransactionStateLog {

    /** What a replay finds, in log order: an id's state, or null for its tombstone. */
    @FunctionalInterface
    interface ReplaySink {
        void stored(String transactionalId, TransactionMetadata metadata);
    }

    /** The topic's partitions, or empty (0) while it does not exist. */
    int partitionCount();

    /**
     * Writes one record (a null value is a tombstone); the future completes once the write counts, or exceptionally
     * with a {@link io.minibroker.broker.log.LogException} carrying the log's error.
     */
    CompletableFuture<Void> write(int partition, byte[] key, byte[] value);

    /** Replays one partition up to its end now. */
    void replay(int partition, ReplaySink sink);
}
