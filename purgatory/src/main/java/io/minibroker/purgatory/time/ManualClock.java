package io.minibroker.purgatory.time;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock for tests that moves only when told. Whatever is driven by it (a purgatory's timer) subscribes with
 * {@link #onAdvance}; {@link #advance} then runs every subscriber on the caller's thread before returning, so
 * exactly the timers that became due have fired when {@code advance} returns, in the same order on every run.
 *
 * <p>Its values stay within {@code ±LIMIT_MS} (2^61 ms, about 73 million years, the range in which a timer's
 * deadline arithmetic cannot overflow), as {@link SystemClock}'s do.
 *
 * <p>Advance it from one thread at a time: a test that advances from two threads at once gets no ordering
 * promise between them.
 */
public final class ManualClock implements Clock {

    /** The largest magnitude a value of this clock may take. */
    public static final long LIMIT_MS = Long.MAX_VALUE / 4;

    private final List<Runnable> subscribers = new CopyOnWriteArrayList<>();
    private volatile long nowMs;

    public ManualClock() {
        this(0L);
    }

    /** A clock that starts at {@code startMs}; any value, including negative ones, is allowed. */
    public ManualClock(long startMs) {
        this.nowMs = checkRange(startMs);
    }

    @Override
    public long nowMs() {
        return nowMs;
    }

    /** Moves time forward by {@code deltaMs} (zero is allowed and re-runs the subscribers) and fires what became due. */
    public void advance(long deltaMs) {
        if (deltaMs < 0) {
            throw new IllegalArgumentException("a monotonic clock cannot go back: " + deltaMs);
        }
        nowMs = checkRange(Math.addExact(nowMs, deltaMs));
        for (Runnable subscriber : subscribers) {
            subscriber.run();
        }
    }

    private static long checkRange(long valueMs) {
        if (valueMs > LIMIT_MS || valueMs < -LIMIT_MS) {
            throw new IllegalArgumentException("a clock value must stay within ±" + LIMIT_MS + ": " + valueMs);
        }
        return valueMs;
    }

    /**
     * Runs {@code subscriber} on every {@link #advance}. Closing the returned handle unsubscribes it.
     */
    public AutoCloseable onAdvance(Runnable subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }
}
