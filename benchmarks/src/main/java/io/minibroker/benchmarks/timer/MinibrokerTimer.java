package io.minibroker.benchmarks.timer;

import io.minibroker.purgatory.time.SystemClock;
import io.minibroker.purgatory.timer.HierarchicalTimer;
import io.minibroker.purgatory.timer.TimerTask;

import java.util.concurrent.atomic.LongAdder;

/** Our {@link HierarchicalTimer} (tick 1 ms, 20 buckets), driven by a thread that does what the purgatory's reaper does. */
final class MinibrokerTimer implements TimerUnderTest {

    private final HierarchicalTimer timer = new HierarchicalTimer(SystemClock.INSTANCE, 1, 20);
    private final LongAdder expired = new LongAdder();
    private final Driver driver = new Driver("minibroker-timer-driver", () -> timer.advanceClock(200));

    MinibrokerTimer() {
        driver.start();
    }

    @Override
    public Object schedule(long delayMs) {
        Task task = new Task(delayMs, expired);
        timer.add(task);
        return task;
    }

    @Override
    public void cancel(Object handle) {
        ((Task) handle).cancel();
    }

    @Override
    public long expired() {
        return expired.sum();
    }

    @Override
    public void shutdown() throws InterruptedException {
        driver.shutdown(timer::wakeUp);
    }

    private static final class Task extends TimerTask {
        private final LongAdder expired;

        Task(long delayMs, LongAdder expired) {
            super(delayMs);
            this.expired = expired;
        }

        @Override
        public void run() {
            expired.increment();
        }
    }
}
