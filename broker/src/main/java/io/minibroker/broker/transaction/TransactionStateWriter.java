package io.minibroker.broker.transaction;

import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

/**
 * Writes an id's record to its partition of {@code __transaction_state} and hands the outcome back on the
 * coordinator's thread (where every write starts) as the error Kafka's appendTransactionToLog maps it to. Kept out
 * of the coordinator so that its rules (which record version the finalized {@code transaction.version} asks for, how
 * a failed write answers the client) stay apart from the rules of the states, which only need to know whether a
 * write counted.
 */
final class TransactionStateWriter {

    private final TransactionStateLog stateLog;
    private final TransactionPartitions partitions;
    /** Its finalized {@code transaction.version}, which decides the value version of each record written. */
    private final TransactionConfig config;
    /** The coordinator's thread, where every outcome is handed back. */
    private final Executor thread;

    TransactionStateWriter(TransactionStateLog stateLog, TransactionPartitions partitions,
                           TransactionConfig config, Executor thread) {
        this.stateLog = stateLog;
        this.partitions = partitions;
        this.config = config;
        this.thread = thread;
    }

    /** Writes an id's new state: NONE once it counts, or the error Kafka maps the failure to. */
    CompletableFuture<Errors> write(TransactionMetadata next) {
        String id = next.transactionalId();
        int partition = partitions.partitionOf(id);
        short valueVersion = TransactionLogRecord.valueVersion(config.transactionVersion());
        return writeRecord(partition, TransactionLogRecord.key(id), TransactionLogRecord.value(next, valueVersion));
    }

    /** Writes the tombstone that removes an expired id. */
    CompletableFuture<Errors> remove(String transactionalId) {
        int partition = partitions.partitionOf(transactionalId);
        return writeRecord(partition, TransactionLogRecord.key(transactionalId), null);
    }

    /**
     * One record to the log, its outcome back on the coordinator's thread: the log's own errors become
     * COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR, anything unexpected UNKNOWN_SERVER_ERROR.
     */
    private CompletableFuture<Errors> writeRecord(int partition, byte[] key, byte[] value) {
        CompletableFuture<Void> written;
        try {
            written = stateLog.write(partition, key, value);
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        BiFunction<Void, Throwable, Errors> outcome =
                (ignored, failure) -> failure == null ? Errors.NONE : CoordinatorWriteErrors.answerFor(failure);
        return CoordinatorOutcomes.handle(written, outcome, thread);
    }
}
