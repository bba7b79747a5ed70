package io.minibroker.benchmarks.timer;

import io.minibroker.purgatory.time.SystemClock;
import io.minibroker.purgatory.timer.HierarchicalTimer;
import io.minibroker.purgatory.timer.TimerTask;

import java.util.concurrent.atomic.LongAdder;

/**
 * Our {@link HierarchicalTimer} (tick 1 ms, 20 buckets), driven by a thread that does what the purgatory's reaper
 * does.
 *
 * <p>As {@code minibroker} each add reads the clock, as Kafka's does. As {@code minibroker-caller-time} each add is
 * given the time instead ({@link HierarchicalTimer#add(TimerTask, long)}), as a request handler that read the
 * clock for its request anyway would give it; this benchmark reads it once per {@value #ADDS_PER_CLOCK_READ}
 * adds, so the figure is the timer's own cost without the clock read, not a like-for-like comparison with Kafka's.
 */
final class MinibrokerTimer implements TimerUnderTest {

    static final String CALLER_TIME = "minibroker-caller-time";
    private static final int ADDS_PER_CLOCK_READ = 64;

    private final HierarchicalTimer timer = new HierarchicalTimer(SystemClock.INSTANCE, 1, 20);
    private final LongAdder expired = new LongAdder();
    private final Driver driver = new Driver("minibroker-timer-driver", () -> timer.advanceClock(200));
    private final boolean callerTime;
    /** The caller's time and how many adds have used it; one per adding thread (JMH's threads share this). */
    private final ThreadLocal<long[]> callerNow = ThreadLocal.withInitial(() -> new long[2]);

    MinibrokerTimer(boolean callerTime) {
        this.callerTime = callerTime;
        driver.start();
    }

    @Override
    public Object schedule(long delayMs) {
        Task task = new Task(delayMs, expired);
        if (callerTime) {
            long[] now = callerNow.get();
            if (now[1]++ % ADDS_PER_CLOCK_READ == 0) {
                now[0] = SystemClock.INSTANCE.nowMs();
            }
            timer.add(task, now[0]);
        } else {
            timer.add(task);
        }
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
