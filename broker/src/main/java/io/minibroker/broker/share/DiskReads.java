package io.minibroker.broker.share;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * The broker's disk-io thread as the share fetch path uses it: counting a parked ShareFetch's {@code MinBytes} reads
 * batch headers from the log's segment files, and its answer reads its records from them, neither of which may
 * happen on an event loop (the handler's, or an append's or a follower fetch's, which checks parked fetches on its
 * own event loop); such work is handed here, and {@link #here()} tells a check whether it may read.
 */
public final class DiskReads implements Executor {

    /** Whether this thread is running a task handed here: only then may a check read the log. */
    private static final ThreadLocal<Boolean> HERE = ThreadLocal.withInitial(() -> false);

    private final Executor disk;

    public DiskReads(Executor disk) {
        this.disk = disk;
    }

    /** Whether the current thread may read the log: it runs a task handed to the disk-io thread through this. */
    boolean here() {
        return HERE.get();
    }

    /** Runs {@code task} on the disk-io thread; dropped once the broker stops it (parked fetches end at close). */
    @Override
    public void execute(Runnable task) {
        try {
            handOver(task);
        } catch (RejectedExecutionException stopping) {
            // the broker is stopping: the purgatory's close answers what is parked
        }
    }

    /**
     * Completes {@code answer} with what {@code response} makes (it reads the log) on the disk-io thread: at once on
     * it, else handed to it. The answer is never left pending, whose connection would hold every later one: a
     * failure, or the broker stopping, completes it exceptionally.
     */
    <T> void complete(CompletableFuture<T> answer, Supplier<T> response) {
        Runnable make = () -> {
            try {
                answer.complete(response.get());
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        };
        if (here()) {
            make.run();
            return;
        }
        try {
            handOver(make);
        } catch (RejectedExecutionException stopping) {
            answer.completeExceptionally(stopping);
        }
    }

    private void handOver(Runnable task) {
        disk.execute(() -> {
            HERE.set(true);
            try {
                task.run();
            } finally {
                HERE.set(false);
            }
        });
    }
}
