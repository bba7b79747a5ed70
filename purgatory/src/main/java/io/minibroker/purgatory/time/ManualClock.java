package io.minibroker.purgatory.time;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock for tests that moves only when told. Whatever is driven by it (a purgatory's timer) subscribes with
 * {@link #onAdvance}; {@link #advance} then runs every subscriber on the caller's thread before returning, so
 * exactly the timers that became due have fired when {@code advance} returns, in the same order on every run.
 *
 * <p>Advance it from one thread at a time: a test that advances from two threads at once gets no ordering
 * promise between them.
 */
public final class ManualClock implements Clock {

    private final List<Runnable> subscribers = new CopyOnWriteArrayList<>();
    private volatile long nowMs;

    public ManualClock() {
        this(0L);
    }

    /** A clock that starts at {@code startMs}; any value, including negative ones, is allowed. */
    public ManualClock(long startMs) {
        this.nowMs = startMs;
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
        nowMs = Math.addExact(nowMs, deltaMs);
        for (Runnable subscriber : subscribers) {
            subscriber.run();
        }
    }

    /**
     * Runs {@code subscriber} on every {@link #advance}. Closing the returned handle unsubscribes it.
     */
    public AutoCloseable onAdvance(Runnable subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }
}
