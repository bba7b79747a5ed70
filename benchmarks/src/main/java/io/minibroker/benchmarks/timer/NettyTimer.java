package io.minibroker.benchmarks.timer;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Netty's {@link HashedWheelTimer} with a 1 ms tick, like the others. Its wheel is single-level (512 slots by
 * default) and its worker thread ticks every millisecond whether or not anything is due.
 */
final class NettyTimer implements TimerUnderTest {

    private final HashedWheelTimer timer = new HashedWheelTimer(1, TimeUnit.MILLISECONDS);
    private final LongAdder expired = new LongAdder();
    /** Netty's task is stateless here, so one instance serves every schedule, as Netty's API allows. */
    private final TimerTask task = timeout -> expired.increment();

    NettyTimer() {
        timer.start();
    }

    @Override
    public Object schedule(long delayMs) {
        return timer.newTimeout(task, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Timeout) handle).cancel();
    }

    @Override
    public long expired() {
        return expired.sum();
    }

    @Override
    public void shutdown() {
        timer.stop();
    }
}
