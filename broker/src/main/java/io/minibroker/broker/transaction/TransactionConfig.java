package io.minibroker.broker.transaction;

/**
 * The coordinator's settings, Kafka's keys: {@code transaction.max.timeout.ms}, {@code transactional.id.expiration.ms},
 * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms},
 * {@code transaction.remove.expired.transaction.cleanup.interval.ms}, and the finalized {@code transaction.version}
 * feature level, which decides the value version of the records written.
 */
public record TransactionConfig(int maxTimeoutMs, long idExpirationMs, long abortTimedOutIntervalMs,
                                long removeExpiredIntervalMs, short transactionVersion) {
}
