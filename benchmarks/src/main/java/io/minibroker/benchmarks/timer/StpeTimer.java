package io.minibroker.benchmarks.timer;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} with one thread, the baseline: a binary heap under one lock.
 * Remove-on-cancel is on, so a cancel takes the task out of the heap (O(log n)) instead of leaving it to expire,
 * which is what a timeout that is usually cancelled needs.
 */
final class StpeTimer implements TimerUnderTest {

    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
    private final LongAdder expired = new LongAdder();
    private final Runnable task = expired::increment;

    StpeTimer() {
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Object schedule(long delayMs) {
        return executor.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Future<?>) handle).cancel(false);
    }

    @Override
    public long expired() {
        return expired.sum();
    }

    @Override
    public void shutdown() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
