package io.minibroker.broker.replica;

import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Writes the hosted partitions' high watermarks to each log directory's {@code replication-offset-checkpoint}
 * every {@code replica.high.watermark.checkpoint.interval.ms} and once more at a clean stop, as Kafka's
 * ReplicaManager does, on a thread of its own ({@code hw-checkpoint}): each write is fsynced, which no event loop
 * may wait for. A restarted broker starts each partition's high watermark there instead of at 0 (committed
 * records hidden until the followers fetch) or at the log end (records nobody else has would be served).
 *
 * <p>In a cluster it starts only once the first image is applied, as Kafka starts its checkpoint thread after the
 * first metadata: before, no partition is hosted, and a write would replace the checkpoint the restart needs with
 * nothing. A single node starts it with its logs, which are all its partitions from the start: it never reads the
 * file back (a partition alone in its ISR has its log end as high watermark), but Kafka writes it for partitions
 * that are not replicated too, and tools and a Kafka broker given the directory expect it.
 */
public final class HighWatermarkCheckpointer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HighWatermarkCheckpointer.class);

    private final LogManager logs;
    private final Supplier<Map<TopicPartition, Long>> highWatermarks;
    private final long intervalMs;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread checkpointer = new Thread(task, "hw-checkpoint");
        checkpointer.setDaemon(true);
        return checkpointer;
    });
    private boolean started;

    private final BrokerClock clock;

    public HighWatermarkCheckpointer(LogManager logs, Supplier<Map<TopicPartition, Long>> highWatermarks,
                                     long intervalMs, BrokerClock clock) {
        this.logs = logs;
        this.highWatermarks = highWatermarks;
        this.intervalMs = intervalMs;
        this.clock = clock;
    }

    /** Starts the periodic writes; again does nothing. */
    public synchronized void start() {
        if (!started && !thread.isShutdown()) {
            started = true;
            clock.scheduleWithFixedDelay(thread, "High watermark checkpoint", intervalMs, this::checkpoint);
        }
    }

    private void checkpoint() {
        try {
            logs.checkpointHighWatermarks(highWatermarks.get());
        } catch (IOException | RuntimeException e) { // one failed round must not cancel the schedule
            LOG.error("Could not checkpoint the high watermarks; a restart starts from older ones", e);
        }
    }

    /** Stops the schedule and, if it had started, writes the high watermarks a last time (a clean stop). */
    @Override
    public synchronized void close() throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(30, TimeUnit.SECONDS);
        if (started) {
            checkpoint();
        }
    }
}
