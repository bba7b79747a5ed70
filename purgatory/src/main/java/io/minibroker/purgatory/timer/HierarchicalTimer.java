package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.Clock;

import java.util.ArrayList;
import java.util.List;

/**
 * A hierarchical timing wheel timer (Varghese and Lauck; Kafka's purgatory timer), driven on demand.
 *
 * <p>Any thread may {@link #add} and {@link TimerTask#cancel()}. Time moves only when one thread, the driver,
 * calls {@link #advanceClock} (a reaper that sleeps until the earliest non-empty bucket is due) or
 * {@link #expireDue} (a {@link io.minibroker.purgatory.time.ManualClock} subscriber). Due tasks run on the
 * driver's thread, outside every lock of the timer; a task added with a deadline that has already passed runs
 * on the adding thread before {@code add} returns.
 *
 * <p>Guarantees: a task never runs before its deadline (deadlines are rounded <em>up</em> to the tick), and runs
 * within one tick of it plus the driver's scheduling latency; a cancelled task never runs unless its run had
 * already begun; each add runs the task at most once.
 *
 * <p>Deadlines are {@code clock.nowMs() + delayMs}, with delays capped at {@link #MAX_DELAY_MS}; the clock's values
 * must stay within {@code ±MAX_DELAY_MS} so that deadline arithmetic cannot overflow.
 */
public final class HierarchicalTimer {

    /** The longest delay honoured; about 73 million years, so only "forever" is ever capped. */
    public static final long MAX_DELAY_MS = Long.MAX_VALUE / 4;

    private static final System.Logger LOG = System.getLogger(HierarchicalTimer.class.getName());
    private static final int POLL_BATCH = 64;

    private final Clock clock;
    private final long tickMs;
    private final BucketQueue queue = new BucketQueue();
    private final TimingWheel lowestWheel;

    /** The driver's scratch space, guarded by {@code this}: buckets polled from the queue and their expirations. */
    private final long[] polledExpirations = new long[POLL_BATCH];
    private final TimerBucket[] polledBuckets = new TimerBucket[POLL_BATCH];

    public HierarchicalTimer(Clock clock, long tickMs, int wheelSize) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("tickMs must be at least 1: " + tickMs);
        }
        if (wheelSize < 2) {
            throw new IllegalArgumentException("wheelSize must be at least 2: " + wheelSize);
        }
        this.clock = clock;
        this.tickMs = tickMs;
        this.lowestWheel = new TimingWheel(tickMs, wheelSize, clock.nowMs());
    }

    /**
     * Schedules {@code task} to run {@link TimerTask#delayMs()} from now. A cancelled task may be added again;
     * adding a task that is still scheduled is an error.
     */
    public void add(TimerTask task) {
        TimerBucket state = task.bucket();
        if (state == TimerBucket.CANCELLED) {
            TimerTask.BUCKET.compareAndSet(task, TimerBucket.CANCELLED, null);
        } else if (state != null) {
            throw new IllegalStateException("task is already scheduled: " + task);
        }
        long deadlineMs = clock.nowMs() + Math.min(task.delayMs(), MAX_DELAY_MS);
        task.deadlineMs = tickMs == 1 ? deadlineMs : Math.floorDiv(deadlineMs + tickMs - 1, tickMs) * tickMs;
        addOrRun(task);
    }

    /**
     * The number of tasks scheduled and not yet run or cancelled: exact when no add, cancel or advance is under
     * way, otherwise a recent value. It sums the buckets' counts, O(buckets), so that adds and cancels share no
     * counter.
     */
    public long size() {
        return lowestWheel.pendingCount();
    }

    /**
     * For the reaper: waits at most {@code maxWaitMs} until the earliest bucket is due (or {@link #wakeUp()}),
     * then runs everything that is due. Returns the number of tasks run.
     */
    public int advanceClock(long maxWaitMs) throws InterruptedException {
        queue.awaitDue(clock, maxWaitMs);
        return expireDue();
    }

    /** Runs every task that is due now, without waiting. Returns the number of tasks run. */
    public synchronized int expireDue() {
        long nowMs = clock.nowMs();
        int ran = 0;
        int polled;
        while ((polled = queue.pollDue(nowMs, polledExpirations, polledBuckets)) > 0) {
            for (int i = 0; i < polled; i++) {
                TimerBucket bucket = polledBuckets[i];
                polledBuckets[i] = null;
                lowestWheel.advanceTo(polledExpirations[i]);
                ran += reAddAll(bucket.takeAllIfDue(polledExpirations[i]));
            }
        }
        // Keep the wheels near real time even when no bucket was due, so that new adds need fewer re-adds.
        lowestWheel.advanceTo(nowMs);
        return ran;
    }

    /** Ends a sleeping {@link #advanceClock} at once (for shutdown). */
    public void wakeUp() {
        queue.wakeUp();
    }

    /**
     * Removes every scheduled task without running it and returns them, as at shutdown; each comes back in the
     * "never scheduled" state and may be run or added again by the caller.
     */
    public synchronized List<TimerTask> removeAll() {
        List<TimerTask> removed = new ArrayList<>();
        for (TimingWheel wheel = lowestWheel; wheel != null; wheel = wheel.overflowIfPresent()) {
            for (TimerBucket bucket : wheel.buckets) {
                TimerTask task = bucket.takeAll();
                while (task != null) {
                    TimerTask following = task.next;
                    task.next = null;
                    removed.add(task);
                    task = following;
                }
            }
        }
        return removed;
    }

    private int reAddAll(TimerTask batch) {
        int ran = 0;
        while (batch != null) {
            TimerTask task = batch;
            batch = task.next;
            task.next = null;
            if (addOrRun(task)) {
                ran++;
            }
        }
        return ran;
    }

    /** Links a task that is in no bucket, or runs it if it is due; returns true if it ran. */
    private boolean addOrRun(TimerTask task) {
        if (task.deadlineMs > lowestWheel.currentTimeMs()) {
            lowestWheel.add(task, queue);
            return false;
        }
        if (task.isCancelled()) {
            return false;
        }
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "timer task " + task + " threw; the timer carries on", e);
        }
        return true;
    }
}
