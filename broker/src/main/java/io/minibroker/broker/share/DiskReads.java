package io.minibroker.broker.share;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The broker's disk-io thread as the share fetch path uses it: counting a parked ShareFetch's {@code MinBytes} reads
 * batch headers from the log's segment files, which must not happen on an event loop (an append or a follower's
 * fetch checks parked fetches on its own event loop); such a count is handed here, and {@link #here()} tells a check
 * whether it may read.
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
            disk.execute(() -> {
                HERE.set(true);
                try {
                    task.run();
                } finally {
                    HERE.set(false);
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the broker is stopping: the purgatory's close answers what is parked
        }
    }
}
