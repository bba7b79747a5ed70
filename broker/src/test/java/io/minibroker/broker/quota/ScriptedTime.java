package io.minibroker.broker.quota;

import org.apache.kafka.common.utils.Time;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** Kafka's Time read from a test's clock, which only the test moves: for Kafka's metrics beside ours. */
final class ScriptedTime implements Time {

    private final AtomicLong nowMs;

    ScriptedTime(AtomicLong nowMs) {
        this.nowMs = nowMs;
    }

    @Override
    public long milliseconds() {
        return nowMs.get();
    }

    @Override
    public long nanoseconds() {
        return TimeUnit.MILLISECONDS.toNanos(nowMs.get());
    }

    @Override
    public void sleep(long ms) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void waitObject(Object o, Supplier<Boolean> condition, long deadlineMs) {
        throw new UnsupportedOperationException();
    }
}
