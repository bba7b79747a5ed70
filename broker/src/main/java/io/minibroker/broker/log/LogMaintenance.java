package io.minibroker.broker.log;

import io.minibroker.broker.time.BrokerClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The background work on logs, on one thread of its own so that no event loop ever waits on a disk: retention
 * every {@code log.retention.check.interval.ms}, time-based flushes every {@code log.flush.scheduler.interval.ms}
 * (each log flushes once its own {@code flush.ms} has passed), and the recovery-point and log-start checkpoints
 * every {@code log.flush.offset.checkpoint.interval.ms}, as Kafka schedules them. A log that rolls a segment is
 * flushed here right after, as Kafka schedules a flush at each roll (an append that rolls runs on an event loop
 * and leaves that fsync to this thread), so the recovery point, where recovery after a crash starts, follows the
 * finished segments; the checkpoint round flushes any roll that was missed too. The broker adds the producer ids'
 * expiry ({@link #scheduleEvery}). The files the logs renamed for deletion are deleted here too, each after its delay
 * ({@link FileDeletions}: {@code file.delete.delay.ms}, {@code log.segment.delete.delay.ms}), as Kafka's scheduler
 * runs its "delete-file" tasks; those still waiting at the close are left to the next start, which deletes them.
 */
public final class LogMaintenance implements LogListener, FileDeletions, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogMaintenance.class);

    /** Logs whose flush after a roll is queued and has not started yet. */
    private final Set<PartitionLog> flushQueued = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "log-maintenance");
        thread.setDaemon(true);
        return thread;
    });

    private final BrokerClock clock;

    /**
     * Starts the schedule, on the broker's clock; the caller registers it with the log manager to have rolled
     * segments flushed.
     *
     * @param retentionReady whether the logs' configs are the ones to delete by: retention skips its rounds until
     *                       then (a cluster broker's, until its first metadata image gives the topics' overrides and
     *                       the dynamic defaults: Kafka starts its LogManager only after the initial metadata)
     */
    public LogMaintenance(LogManager logs, BrokerClock clock, long retentionCheckIntervalMs, long flushCheckIntervalMs,
                          long checkpointIntervalMs, BooleanSupplier retentionReady) {
        this.clock = clock;
        // A deletion still waiting at the close is dropped, not waited for: the next start deletes its files.
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduleEvery(retentionCheckIntervalMs, "retention", () -> {
            if (!retentionReady.getAsBoolean()) {
                return;
            }
            int deleted = logs.deleteOldSegments();
            if (deleted > 0) {
                LOG.info("Retention deleted {} segments", deleted);
            }
        });
        scheduleEvery(flushCheckIntervalMs, "flush", logs::flushDueLogs);
        scheduleEvery(checkpointIntervalMs, "checkpoint", () -> {
            try {
                logs.flushRolledLogs(); // finished segments to disk first, so the recovery points move past them
                logs.checkpoint();
            } catch (IOException e) {
                LOG.error("Could not write the offset checkpoints; recovery after a crash will start earlier", e);
            }
        });
    }

    /**
     * Queues the log's flush, unless one is queued already: a log that rolls on every few appends (a tiny
     * {@code segment.bytes}) must not fill the queue ahead of retention and the checkpoints. The flag is cleared
     * before the flush runs, so a roll during it queues the next one.
     */
    @Override
    public void segmentRolled(PartitionLog log) {
        if (!flushQueued.add(log)) {
            return;
        }
        try {
            scheduler.execute(() -> {
                flushQueued.remove(log);
                try {
                    log.flushIfRolled();
                } catch (RuntimeException e) {
                    LOG.error("Flushing {} after a roll failed; the next checkpoint round tries again",
                            log.topicPartition(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            flushQueued.remove(log);
            LOG.debug("Not flushing {} after a roll: shutting down, and closing the log flushes it", log.topicPartition());
        }
    }

    /**
     * Runs {@code task} every {@code intervalMs} on this thread, with the rounds above: for a round over the logs
     * that needs more than the log manager (the producer ids' expiry, which also reaches the leaders' tables).
     */
    public void scheduleEvery(long intervalMs, String what, Runnable task) {
        if (intervalMs <= 0 || intervalMs == Long.MAX_VALUE) {
            return; // Kafka's "never"
        }
        clock.scheduleWithFixedDelay(scheduler, "Log " + what, intervalMs, task);
    }

    /** Deletes what a log renamed for deletion {@code delayMs} from now, on this thread, on the broker's clock. */
    @Override
    public void deleteLater(String what, long delayMs, Deletion deletion) {
        try {
            clock.scheduleOnce(scheduler, "Deleting " + what, delayMs, () -> FileDeletions.run(what, deletion));
        } catch (RejectedExecutionException e) {
            LOG.info("Not deleting {}: shutting down, and the next start deletes them", what);
        }
    }

    /** Stops the schedule and waits for a round in progress, so the logs can close under nobody's feet. */
    @Override
    public void close() throws InterruptedException {
        scheduler.shutdown();
        scheduler.awaitTermination(30, TimeUnit.SECONDS);
    }
}
