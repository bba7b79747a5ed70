package io.minibroker.benchmarks.timer;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.TimerTask;

import java.util.concurrent.atomic.LongAdder;

/**
 * Kafka 4.4.0's {@link SystemTimer} (tick 1 ms, 20 buckets). Expired tasks run on its own executor thread; a
 * driver thread calls advanceClock as the purgatory's reaper does.
 */
final class KafkaTimer implements TimerUnderTest {

    private final SystemTimer timer = new SystemTimer("bench", 1, 20, Time.SYSTEM.hiResClockMs());
    private final LongAdder expired = new LongAdder();
    private final Driver driver = new Driver("kafka-timer-driver", () -> timer.advanceClock(200));

    KafkaTimer() {
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
    public void shutdown() throws Exception {
        driver.shutdown(() -> { });
        timer.close();
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
