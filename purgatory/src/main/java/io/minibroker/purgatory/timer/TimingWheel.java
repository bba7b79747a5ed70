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
 *
 * <p>An add divides nothing. The current time is published together with its slot ({@link Position}, made by the
 * driver when the wheel moves), so a deadline's bucket is that slot plus the deadline's distance in ticks, which
 * is below the wheel size; the distance comes from a multiplication by the tick's reciprocal, corrected to the
 * exact quotient. Two 64-bit divisions (a floorDiv by the tick, a floorMod by the wheel size) were a fifth of an
 * add+cancel. A deadline already behind the wheel (an adder overtaken by the driver) and the saturated wheels of
 * delays beyond any real use take the dividing path.
 */
final class TimingWheel {

    final long tickMs;
    final long intervalMs;
    final TimerBucket[] buckets;

    /** The wheel's current tick and the slot it falls in, published as one so adders read a matching pair. */
    private record Position(long timeMs, int slot) {
    }

    private final double reciprocalTickMs;
    /** Whether tick * (wheel size + 1) fits a long, so the quotient can be corrected without overflow. */
    private final boolean dividesByMultiplying;
    private volatile Position position;
    private volatile TimingWheel overflow;

    TimingWheel(long tickMs, int wheelSize, long startMs) {
        this.tickMs = tickMs;
        this.intervalMs = saturatedMultiply(tickMs, wheelSize);
        this.reciprocalTickMs = 1.0 / tickMs;
        this.dividesByMultiplying = saturatedMultiply(tickMs, wheelSize + 1L) < Long.MAX_VALUE;
        this.buckets = new TimerBucket[wheelSize];
        this.position = positionOf(startMs - Math.floorMod(startMs, tickMs));
        for (int i = 0; i < wheelSize; i++) {
            buckets[i] = new TimerBucket();
        }
    }

    long currentTimeMs() {
        return position.timeMs;
    }

    /**
     * Links a task whose deadline is past this wheel's current tick, and whose state is {@code from}, into this
     * wheel or an overflow wheel. Returns false if the task left that state (was cancelled) first.
     */
    boolean add(TimerTask task, TimerBucket from, BucketQueue queue) {
        long deadlineMs = task.deadlineMs;
        TimingWheel wheel = this;
        Position at = wheel.position;
        while (deadlineMs - at.timeMs >= wheel.intervalMs) {
            wheel = wheel.overflow();
            at = wheel.position;
        }
        return wheel.link(task, from, deadlineMs, at, queue);
    }

    /** Links the task into the bucket of its deadline, which is less than an interval past {@code at}. */
    private boolean link(TimerTask task, TimerBucket from, long deadlineMs, Position at, BucketQueue queue) {
        long distanceMs = deadlineMs - at.timeMs;
        if (distanceMs < 0 || !dividesByMultiplying) {
            long virtualBucket = Math.floorDiv(deadlineMs, tickMs);
            TimerBucket bucket = buckets[(int) Math.floorMod(virtualBucket, (long) buckets.length)];
            return bucket.add(task, from, virtualBucket * tickMs, queue);
        }
        long ticks = tickMs == 1 ? distanceMs : ticksIn(distanceMs);
        int slot = at.slot + (int) ticks; // ticks < wheel size: the deadline is within this wheel's interval
        if (slot >= buckets.length) {
            slot -= buckets.length;
        }
        return buckets[slot].add(task, from, at.timeMs + ticks * tickMs, queue);
    }

    /**
     * {@code distanceMs / tickMs} for a distance within the interval: the product with the reciprocal is off by
     * at most one either way (both roundings are far below one part in 2^50 of a quotient below the wheel size),
     * which the remainder's sign and size put right.
     */
    private long ticksIn(long distanceMs) {
        long ticks = (long) (distanceMs * reciprocalTickMs);
        long rest = distanceMs - ticks * tickMs;
        if (rest < 0) {
            ticks--;
        } else if (rest >= tickMs) {
            ticks++;
        }
        return ticks;
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
        Position current = position;
        if (timeMs - current.timeMs >= tickMs) {
            current = positionOf(timeMs - Math.floorMod(timeMs, tickMs));
            position = current;
        }
        TimingWheel above = overflow;
        if (above != null) {
            above.advanceTo(current.timeMs);
        }
    }

    /** A tick's start and its slot: the driver's division, once per tick moved, instead of one per add. */
    private Position positionOf(long tickStartMs) {
        long virtualBucket = Math.floorDiv(tickStartMs, tickMs);
        return new Position(tickStartMs, (int) Math.floorMod(virtualBucket, (long) buckets.length));
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
                    above = new TimingWheel(intervalMs, buckets.length, position.timeMs);
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
