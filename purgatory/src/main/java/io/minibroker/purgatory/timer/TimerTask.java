package io.minibroker.purgatory.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Something to run once its delay has passed, unless cancelled first. The task is its own list node: a timer
 * links it straight into a bucket, so scheduling allocates nothing and {@link #cancel()} unlinks it in O(1).
 *
 * <p>The field {@code bucket} is the task's whole state:
 * <pre>
 *   null        idle: never scheduled, running or run, or handed back by {@link HierarchicalTimer#removeAll()}
 *   a bucket    linked into that bucket; while linked, the state changes only under that bucket's lock
 *   MOVING      taken from a due bucket by the timer's driver, to be run or linked again
 *   CANCELLED   cancelled; a timer that meets it in this state drops it instead of linking or running it
 * </pre>
 * The driver leaves MOVING only by a compare-and-set (to a bucket, or to idle just before running the task), and
 * a cancel of a moving task is a compare-and-set to CANCELLED, so exactly one of them wins: a cancel is never
 * lost and a cancelled task never runs. Cancelling a linked task takes its bucket's lock and re-checks the
 * state there, one atomic operation in all.
 *
 * <p>A new add checks that the task is idle and then writes its bucket with a release store under the bucket's lock,
 * not a compare-and-set (one atomic operation less per add). Two consequences:
 * <ul>
 *   <li>A task is added by one thread at a time. Two adds of the same task racing into different buckets (each
 *       under its own lock) may both see it idle and both link it, corrupting both lists; no check catches it.
 *   <li>A cancel of a task that is not scheduled yet returns false and promises nothing: the next add clears it,
 *       and an add already under way on another thread may link the task over it. A caller that cancels from one
 *       thread what another is adding, and must not leave it scheduled, has the adder look again after its add,
 *       past a full fence, as {@code Purgatory#tryCompleteElseWatch} does.
 * </ul>
 */
public abstract class TimerTask implements Runnable {

    static final VarHandle BUCKET;

    static {
        try {
            BUCKET = MethodHandles.lookup().findVarHandle(TimerTask.class, "bucket", TimerBucket.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long delayMs;

    @SuppressWarnings("unused") // accessed through BUCKET
    private volatile TimerBucket bucket;

    /** Absolute deadline rounded up to the timer's tick; written by the scheduling thread before linking. */
    long deadlineMs;

    /** Neighbours in the bucket's list, guarded by the bucket's lock. */
    TimerTask prev;
    TimerTask next;

    protected TimerTask(long delayMs) {
        if (delayMs < 0) {
            throw new IllegalArgumentException("delayMs must not be negative: " + delayMs);
        }
        this.delayMs = delayMs;
    }

    /** The delay after which the task runs, counted from when it is added to a timer. */
    public final long delayMs() {
        return delayMs;
    }

    /**
     * Stops the task from running. Returns true if this call took it out of its timer before it ran; false if it
     * was not scheduled, was already cancelled, or has already started running.
     */
    public final boolean cancel() {
        // The first read is volatile, not acquire: a completer that has just set its operation's state (a
        // compare-and-set) and then cancels is one side of a Dekker handshake with the adder, which links and then
        // reads that state past a full fence (see the class comment). Only volatile accesses take part in the total
        // order that makes such a handshake hold under the memory model; on x86 the two reads are the same load.
        TimerBucket state = (TimerBucket) BUCKET.getVolatile(this);
        while (true) {
            if (state == TimerBucket.CANCELLED) {
                return false;
            }
            if (state == null) {
                if (BUCKET.compareAndSet(this, null, TimerBucket.CANCELLED)) {
                    return false;
                }
            } else if (state == TimerBucket.MOVING) {
                if (BUCKET.compareAndSet(this, TimerBucket.MOVING, TimerBucket.CANCELLED)) {
                    return true;
                }
            } else if (state.remove(this)) {
                return true;
            }
            // The timer moved the task between our read and our action: look again.
            state = (TimerBucket) BUCKET.getAcquire(this);
        }
    }

    /**
     * True if {@link #cancel()} was called since the task was last added, whatever it returned: a task that had
     * already run, or was never scheduled, reads cancelled too once cancelled. It does not say whether the task
     * ran (the result of {@code cancel()} does), and a cancel that raced an add on another thread may have been
     * overwritten by that add (see the class comment).
     */
    public final boolean isCancelled() {
        return BUCKET.getAcquire(this) == TimerBucket.CANCELLED;
    }

    final TimerBucket bucket() {
        return (TimerBucket) BUCKET.getAcquire(this);
    }
}
