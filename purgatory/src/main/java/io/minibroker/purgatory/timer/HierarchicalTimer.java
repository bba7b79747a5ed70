package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A hierarchical timing wheel timer (Varghese and Lauck; Kafka's purgatory timer), driven on demand.
 *
 * <p>Any thread may {@link #add} and {@link TimerTask#cancel()}. Time moves only when a driver calls
 * {@link #advanceClock} (a reaper that sleeps until the earliest non-empty bucket is due) or {@link #expireDue}
 * (a {@link io.minibroker.purgatory.time.ManualClock} subscriber). The driver takes due buckets under its own
 * lock, re-links the tasks that are not yet due, and runs the due ones after releasing it, so a task's
 * {@code run} never executes under any timer lock. A task added with a deadline that has already passed runs on
 * the adding thread before {@code add} returns.
 *
 * <p>Guarantees: a task never runs before its deadline (deadlines are rounded <em>up</em> to the tick), and runs
 * within one tick of it plus the driver's scheduling latency; a task whose cancel returned true never runs; each
 * add runs the task at most once.
 *
 * <p>Deadlines are {@code clock.nowMs() + delayMs}, with delays capped at {@link #MAX_DELAY_MS}; the clock's values
 * must stay within {@code ±MAX_DELAY_MS} so that deadline arithmetic cannot overflow.
 */
public final class HierarchicalTimer {

    /** The longest delay honoured, and the largest tick; about 73 million years. */
    public static final long MAX_DELAY_MS = Long.MAX_VALUE / 4;

    private static final System.Logger LOG = System.getLogger(HierarchicalTimer.class.getName());
    private static final int POLL_BATCH = 64;

    private final Clock clock;
    private final long tickMs;
    private final BucketQueue queue = new BucketQueue();
    private final TimingWheel lowestWheel;

    /** Tasks the driver holds in the MOVING state, so that {@link #size()} counts them while they move. */
    private final AtomicLong inFlight = new AtomicLong();

    /** Serialises drivers. Guards the scratch space below; never held while a task runs. */
    private final ReentrantLock driverLock = new ReentrantLock();
    private final long[] polledExpirations = new long[POLL_BATCH];
    private final TimerBucket[] polledBuckets = new TimerBucket[POLL_BATCH];
    private final TaskBatch moving = new TaskBatch();
    /** A reusable batch of due tasks; null while a driver runs it (a nested driver then makes its own). */
    private TaskBatch spareDueBatch = new TaskBatch();

    public HierarchicalTimer(Clock clock, long tickMs, int wheelSize) {
        if (tickMs < 1 || tickMs > MAX_DELAY_MS) {
            throw new IllegalArgumentException("tickMs must be between 1 and " + MAX_DELAY_MS + ": " + tickMs);
        }
        if (wheelSize < 2) {
            throw new IllegalArgumentException("wheelSize must be at least 2: " + wheelSize);
        }
        this.clock = clock;
        this.tickMs = tickMs;
        this.lowestWheel = new TimingWheel(tickMs, wheelSize, clock.nowMs());
    }

    /**
     * Schedules {@code task} to run {@link TimerTask#delayMs()} from now. A task that ran or was cancelled may be
     * added again; adding a task that is still scheduled is an error.
     *
     * <p>A task is added by one thread at a time. The error check is not atomic with the link (a new add checks
     * the task's state and stores its bucket with plain accesses, see {@link TimerTask}), so two adds of the same
     * task racing into different buckets may both link it and corrupt both buckets' lists.
     */
    public void add(TimerTask task) {
        add(task, clock.nowMs());
    }

    /**
     * {@link #add(TimerTask)} for a caller that has just read this timer's clock itself: the task runs
     * {@link TimerTask#delayMs()} after {@code nowMs}. Reading the clock ({@code System.nanoTime}) is about half of an
     * add and cancel, so a caller that reads the time once per request anyway may pass it in. {@code nowMs} must be
     * a value of this timer's clock taken before the call: an older one only brings the deadline forward (a
     * deadline already passed runs the task at once), a value of another clock would misplace it.
     */
    public void add(TimerTask task, long nowMs) {
        TimerBucket state = task.bucket();
        if (state == TimerBucket.CANCELLED) {
            if (!TimerTask.BUCKET.compareAndSet(task, TimerBucket.CANCELLED, null)) {
                throw new IllegalStateException("task was added concurrently: " + task);
            }
        } else if (state != null) {
            throw new IllegalStateException("task is already scheduled: " + task);
        }
        long deadlineMs = nowMs + Math.min(task.delayMs(), MAX_DELAY_MS);
        // A 1 ms tick, the usual case, needs no rounding division.
        task.deadlineMs = tickMs == 1 ? deadlineMs : Math.floorDiv(deadlineMs + tickMs - 1, tickMs) * tickMs;
        if (task.deadlineMs > lowestWheel.currentTimeMs()) {
            lowestWheel.add(task, null, queue);
        } else {
            runSafely(task);
        }
    }

    /**
     * The number of tasks scheduled and not yet run or cancelled: exact when no add, cancel or advance is under
     * way, otherwise a recent value. It sums the buckets' counts, O(buckets), so that adds and cancels share no
     * counter.
     */
    public long size() {
        return lowestWheel.pendingCount() + inFlight.get();
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
    public int expireDue() {
        TaskBatch due;
        driverLock.lock();
        try {
            due = spareDueBatch == null ? new TaskBatch() : spareDueBatch;
            spareDueBatch = null;
            collectDue(clock.nowMs(), due);
        } finally {
            driverLock.unlock();
        }
        int ran = 0;
        for (int i = 0, n = due.size(); i < n; i++) {
            TimerTask task = due.get(i);
            if (TimerTask.BUCKET.compareAndSet(task, TimerBucket.MOVING, null)) { // else cancelled meanwhile
                runSafely(task);
                ran++;
            }
        }
        inFlight.addAndGet(-due.size());
        due.clear();
        driverLock.lock();
        try {
            spareDueBatch = due;
        } finally {
            driverLock.unlock();
        }
        return ran;
    }

    /** Ends a sleeping {@link #advanceClock} at once (for shutdown). */
    public void wakeUp() {
        queue.wakeUp();
    }

    /**
     * Removes every scheduled task without running it and returns them, as at shutdown; each comes back idle and
     * may be run or added again by the caller.
     */
    public List<TimerTask> removeAll() {
        driverLock.lock();
        try {
            TaskBatch taken = new TaskBatch();
            for (TimingWheel wheel = lowestWheel; wheel != null; wheel = wheel.overflowIfPresent()) {
                for (TimerBucket bucket : wheel.buckets) {
                    bucket.takeAll(taken);
                }
            }
            List<TimerTask> removed = new ArrayList<>(taken.size());
            for (int i = 0; i < taken.size(); i++) {
                removed.add(taken.get(i));
            }
            return removed;
        } finally {
            driverLock.unlock();
        }
    }

    /** Empties every due bucket: re-links the tasks not yet due, and leaves the due ones, MOVING, in {@code due}. */
    private void collectDue(long nowMs, TaskBatch due) {
        int polled;
        while ((polled = queue.pollDue(nowMs, polledExpirations, polledBuckets)) > 0) {
            for (int i = 0; i < polled; i++) {
                TimerBucket bucket = polledBuckets[i];
                polledBuckets[i] = null;
                lowestWheel.advanceTo(polledExpirations[i]);
                bucket.takeAllIfDue(polledExpirations[i], moving);
                inFlight.addAndGet(moving.size());
                int relinked = 0;
                for (int j = 0, n = moving.size(); j < n; j++) {
                    TimerTask task = moving.get(j);
                    if (task.deadlineMs > lowestWheel.currentTimeMs()) {
                        lowestWheel.add(task, TimerBucket.MOVING, queue); // false: cancelled, dropped
                        relinked++;
                    } else {
                        due.add(task);
                    }
                }
                inFlight.addAndGet(-relinked);
                moving.clear();
            }
        }
        // Keep the wheels near real time even when no bucket was due, so that new adds need fewer re-adds.
        lowestWheel.advanceTo(nowMs);
    }

    private static void runSafely(TimerTask task) {
        try {
            task.run();
        } catch (Throwable t) { // a task's failure must not stop the driver or strand the rest of the batch
            LOG.log(System.Logger.Level.ERROR, "timer task " + task + " threw; the timer carries on", t);
        }
    }
}
