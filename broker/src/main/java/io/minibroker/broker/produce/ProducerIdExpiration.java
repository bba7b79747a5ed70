package io.minibroker.broker.produce;

import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.PartitionLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * The round that expires idle producers (Kafka's PeriodicProducerExpirationCheck, every
 * {@code producer.id.expiration.check.interval.ms}): a producer whose last batch or marker is stamped
 * {@code producer.id.expiration.ms} or more before the broker's time, with no transaction open, leaves each log's
 * producer state (the one a leader checks a produce against), so that a broker that runs for months
 * with short-lived producers does not keep every producer id it ever saw. Such a producer's next batch is then a new
 * producer's, taken at any sequence, as Kafka 4 takes an idempotent producer's batch when it has no state for it.
 *
 * <p>One round for all the logs, on the log-maintenance thread. Producers already idle long enough when the broker
 * starts are left out as each log loads its producer snapshot ({@code PartitionLog.open}, as Kafka's
 * ProducerStateManager loads one); those only the batches after a snapshot name wait for the first round, as in Kafka.
 */
public final class ProducerIdExpiration implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerIdExpiration.class);

    private final LogManager logs;
    private final Clock clock;
    private final long expirationMs;

    /**
     * @param clock        the broker's wall clock, which the batches' timestamps are compared with
     * @param expirationMs {@code producer.id.expiration.ms}
     */
    public ProducerIdExpiration(LogManager logs, Clock clock, long expirationMs) {
        this.logs = logs;
        this.clock = clock;
        this.expirationMs = expirationMs;
    }

    @Override
    public void run() {
        long now = clock.millis();
        int removed = 0;
        for (PartitionLog log : logs.allLogs()) {
            removed += log.removeExpiredProducers(now, expirationMs);
        }
        if (removed > 0) {
            LOG.info("Expired {} producer ids idle for {} ms or more", removed, expirationMs);
        }
    }
}
