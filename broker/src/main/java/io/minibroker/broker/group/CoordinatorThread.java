package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The group coordinator's own thread ("group-coordinator"), Kafka's coordinator runtime in miniature: writes to
 * {@code __consumer_offsets} run here in order, off the event loops (an append may fsync, with
 * {@code log.flush.interval.messages=1}, which must not stall every connection of a loop), as do partition loads,
 * the offset expiry round and, in a cluster, what happens once a write is replicated. A task takes at most the
 * lock of the group it works on; it may hold it across its checks and its append, so an event loop needing that
 * group meanwhile waits for the append.
 */
final class CoordinatorThread {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorThread.class);

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "group-coordinator");
        thread.setDaemon(true);
        return thread;
    });

    /** Where the completions of replicated writes are handed back to this thread. */
    Executor executor() {
        return executor;
    }

    /** Runs the task here; one that throws is logged. Once the coordinator is closing, the task is dropped. */
    void run(Runnable task) {
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) { // an executor would drop it without a word
                    LOG.error("A group coordinator task failed", e);
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the broker is stopping: its groups are answered NOT_COORDINATOR by close()
        }
    }

    /** The value the task computes here. */
    <T> CompletableFuture<T> supply(Supplier<T> task) {
        return CompletableFuture.supplyAsync(task, executor);
    }

    /** The outcome of the future the task starts here (a write, that completes once it counts). */
    <T> CompletableFuture<T> compose(Supplier<CompletableFuture<T>> task) {
        return supply(task).thenCompose(outcome -> outcome);
    }

    /** Runs the task here every {@code periodMs} on the broker's clock. */
    void scheduleWithFixedDelay(BrokerClock clock, String what, long periodMs, Runnable task) {
        clock.scheduleWithFixedDelay(executor, what, periodMs, task);
    }

    /** Finishes the tasks already queued, waiting up to a minute; later ones are dropped. */
    void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(1, TimeUnit.MINUTES);
    }
}
