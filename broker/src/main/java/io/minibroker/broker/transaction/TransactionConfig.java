package io.minibroker.broker.transaction;

import java.util.function.IntSupplier;

/**
 * The coordinator's settings, Kafka's keys: {@code transaction.max.timeout.ms}, {@code transactional.id.expiration.ms},
 * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms},
 * {@code transaction.remove.expired.transaction.cleanup.interval.ms}, and the finalized {@code transaction.version}
 * feature level, which decides the value version of the records written. That level is read at each use, as Kafka's
 * coordinator reads it from the metadata cache: UpdateFeatures may change it while the broker runs.
 */
public record TransactionConfig(int maxTimeoutMs, long idExpirationMs, long abortTimedOutIntervalMs,
                                long removeExpiredIntervalMs, IntSupplier transactionVersionLevel) {

    /** Settings with a {@code transaction.version} that never changes. */
    public TransactionConfig(int maxTimeoutMs, long idExpirationMs, long abortTimedOutIntervalMs,
                             long removeExpiredIntervalMs, short transactionVersion) {
        this(maxTimeoutMs, idExpirationMs, abortTimedOutIntervalMs, removeExpiredIntervalMs, () -> transactionVersion);
    }

    /** The finalized {@code transaction.version} now. */
    public short transactionVersion() {
        return (short) transactionVersionLevel.getAsInt();
    }
}
