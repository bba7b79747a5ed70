package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.SystemClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The reaper's sleep on the real clock: it ends when a bucket falls due earlier, or when woken. */
class TimerWakeUpTest {

    private final HierarchicalTimer timer = new HierarchicalTimer(SystemClock.INSTANCE, 1, 20);

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void wakeUpEndsAnIdleSleepAtOnce() throws Exception {
        Thread reaper = startSleeper(() -> true);

        timer.wakeUp();

        reaper.join(10_000);
        assertThat(reaper.isAlive()).as("a 60 s sleep ended by wakeUp").isFalse();
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void anEarlierTaskEndsALongSleepAndRuns() throws Exception {
        RecordingTask task = new RecordingTask(SystemClock.INSTANCE, 5);
        // One advance may only cascade the task down a level; a reaper keeps advancing until it has run.
        Thread reaper = startSleeper(() -> task.runs() > 0);

        timer.add(task);

        reaper.join(10_000);
        assertThat(reaper.isAlive()).as("the new earliest bucket woke the sleeper").isFalse();
        assertThat(task.runs()).isEqualTo(1);
    }

    /**
     * Starts a thread that advances the timer with 60 s sleeps until {@code done}, and returns once it is parked.
     * Any sleep that is not cut short keeps it alive far beyond the test's joins.
     */
    private Thread startSleeper(BooleanSupplier done) throws InterruptedException {
        Thread sleeper = new Thread(() -> {
            try {
                do {
                    timer.advanceClock(60_000);
                } while (!done.getAsBoolean());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        while (sleeper.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
        return sleeper;
    }
}
