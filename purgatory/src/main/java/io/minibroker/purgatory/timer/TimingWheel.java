package io.minibroker.purgatory.timer;

/**
 * One level of a hierarchical timing wheel: {@code wheelSize} buckets of {@code tickMs} each, covering
 * {@code intervalMs = tickMs * wheelSize} from {@code currentTimeMs}. A deadline beyond that goes to the overflow
 * wheel, whose tick is this wheel's interval; overflow wheels are created the first time one is needed.
 *
 * <p>Worked example with tick 1 ms and 20 buckets, at current time 100:
 * <pre>
 *   deadline 105  -> level 0 (tick 1),   bucket 105 % 20 = 5, expires at 105, runs then
 *   deadline 150  -> level 1 (tick 20),  bucket (150 / 20) % 20 = 7, expires at 140; at 140 it is re-added
 *                    and lands in level 0, bucket 150 % 20 = 10, expiring at 150
 *   deadline 9000 -> level 2 (tick 400), expires at 8800; then level 1 at 9000 ... and runs at 9000
 * </pre>
 * A task in level k is re-added k times before it runs, and k grows with the logarithm of its delay, so an add
 * costs O(levels) and a cancel O(1).
 *
 * <p>{@code currentTimeMs} only moves under the timer's advance lock; adders read it without locking. An adder
 * that reads a value the reaper has just moved past still places its task correctly: the bucket it picks is
 * flushed at or before the task's deadline, and a flush re-adds every task that is not yet due.
 */
final class TimingWheel {

    final long tickMs;
    final long intervalMs;
    final TimerBucket[] buckets;

    private volatile long currentTimeMs;
    private volatile TimingWheel overflow;

    TimingWheel(long tickMs, int wheelSize, long startMs) {
        this.tickMs = tickMs;
        this.intervalMs = saturatedMultiply(tickMs, wheelSize);
        this.currentTimeMs = startMs - Math.floorMod(startMs, tickMs);
        this.buckets = new TimerBucket[wheelSize];
        for (int i = 0; i < wheelSize; i++) {
            buckets[i] = new TimerBucket();
        }
    }

    long currentTimeMs() {
        return currentTimeMs;
    }

    /**
     * Links a task whose deadline is past this wheel's current tick, and whose state is {@code from}, into this
     * wheel or an overflow wheel. Returns false if the task left that state (was cancelled) first.
     */
    boolean add(TimerTask task, TimerBucket from, BucketQueue queue) {
        long deadlineMs = task.deadlineMs;
        TimingWheel wheel = this;
        while (deadlineMs - wheel.currentTimeMs >= wheel.intervalMs) {
            wheel = wheel.overflow();
        }
        // A 1 ms tick, the usual case, needs no division.
        long virtualBucket = wheel.tickMs == 1 ? deadlineMs : Math.floorDiv(deadlineMs, wheel.tickMs);
        TimerBucket bucket = wheel.buckets[(int) Math.floorMod(virtualBucket, (long) wheel.buckets.length)];
        return bucket.add(task, from, virtualBucket * wheel.tickMs, queue);
    }

    /**
     * Moves this wheel, and every overflow wheel above it, to the tick that contains {@code timeMs}.
     *
     * <p>The time is passed up even when this wheel did not move: an adder may have created the overflow wheel
     * from a current time read just before the driver advanced, so a new wheel can start a tick behind, and only
     * the driver (the sole writer of current times) can bring it level. A wheel left behind would send a task
     * up a level too far, into a bucket that is already due, and back again without end.
     */
    void advanceTo(long timeMs) {
        if (timeMs - currentTimeMs >= tickMs) {
            currentTimeMs = timeMs - Math.floorMod(timeMs, tickMs);
        }
        TimingWheel above = overflow;
        if (above != null) {
            above.advanceTo(currentTimeMs);
        }
    }

    /** Tasks linked in this wheel and the wheels above it; exact when no add or cancel is under way. */
    long pendingCount() {
        long linked = 0;
        for (TimingWheel wheel = this; wheel != null; wheel = wheel.overflow) {
            for (TimerBucket bucket : wheel.buckets) {
                linked += bucket.count();
            }
        }
        return linked;
    }

    /** The wheel above this one, or null if none was needed yet. */
    TimingWheel overflowIfPresent() {
        return overflow;
    }

    private TimingWheel overflow() {
        TimingWheel above = overflow;
        if (above == null) {
            synchronized (this) {
                above = overflow;
                if (above == null) {
                    above = new TimingWheel(intervalMs, buckets.length, currentTimeMs);
                    overflow = above;
                }
            }
        }
        return above;
    }

    private static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
    }
}
