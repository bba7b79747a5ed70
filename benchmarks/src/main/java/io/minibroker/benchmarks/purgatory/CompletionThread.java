package io.minibroker.benchmarks.purgatory;

import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * Completes requests at arrival + latency, as the seed benchmark did: the enqueue thread puts each request whose
 * latency is below the timeout into a {@link DelayQueue}, and this one thread takes them when due and either
 * force-completes them or marks them satisfiable and checks their keys.
 *
 * <p>The queue is the same for both implementations, so its cost (one lock and a heap insert per request) is a
 * constant that both saturation figures include.
 */
final class CompletionThread extends Thread {

    private static final int END = -1;

    private final DelayQueue<Due> queue = new DelayQueue<>();
    private final PurgatoryAdapter adapter;
    private final CompletionMode mode;
    private final Conditions conditions;
    private final int[] keys;
    private volatile Throwable failure;
    /** How late the thread got to its entries: a request it reaches too late may have expired meanwhile. */
    private long lateNanosTotal;
    private long lateNanosMax;
    private long processed;

    CompletionThread(PurgatoryAdapter adapter, CompletionMode mode, Conditions conditions, int[] keys) {
        super("completion");
        setDaemon(true);
        this.adapter = adapter;
        this.mode = mode;
        this.conditions = conditions;
        this.keys = keys;
    }

    /**
     * Schedules request {@code request} to be completed at {@code dueNanos}; {@code operation} is needed in
     * force mode only, and left null in event mode so that a backlog does not keep operations alive.
     */
    void schedule(BenchOperation operation, int request, long dueNanos) {
        queue.put(new Due(operation, request, dueNanos));
    }

    /**
     * Ends the thread once everything scheduled so far has been completed: the marker is due after all of them,
     * since every entry is due at most one timeout after it was put.
     */
    void finishAfter(long lastDueNanos) {
        queue.put(new Due(null, END, lastDueNanos));
    }

    Throwable failure() {
        return failure;
    }

    /** Mean lateness in milliseconds; read after the thread has ended. */
    double meanLateMs() {
        return processed == 0 ? 0 : lateNanosTotal / 1e6 / processed;
    }

    /** Worst lateness in milliseconds; read after the thread has ended. */
    double maxLateMs() {
        return lateNanosMax / 1e6;
    }

    @Override
    public void run() {
        try {
            while (true) {
                Due due = queue.take();
                if (due.request == END) {
                    return;
                }
                long late = System.nanoTime() - due.dueNanos;
                lateNanosTotal += late;
                lateNanosMax = Math.max(lateNanosMax, late);
                processed++;
                complete(due.operation, due.request);
            }
        } catch (InterruptedException e) {
            // stopped early by the run after a failure
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void complete(BenchOperation operation, int request) {
        if (mode == CompletionMode.FORCE) {
            operation.forceCompleteNow();
        } else {
            conditions.satisfy(request);
            int base = request * RunSpec.KEYS_PER_REQUEST;
            for (int k = 0; k < RunSpec.KEYS_PER_REQUEST; k++) {
                adapter.checkAndComplete(keys[base + k]);
            }
        }
    }

    private static final class Due implements Delayed {
        final BenchOperation operation;
        final int request;
        final long dueNanos;

        Due(BenchOperation operation, int request, long dueNanos) {
            this.operation = operation;
            this.request = request;
            this.dueNanos = dueNanos;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(dueNanos, ((Due) other).dueNanos);
        }
    }
}
