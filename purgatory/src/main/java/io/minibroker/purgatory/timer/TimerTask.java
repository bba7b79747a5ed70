package io.minibroker.purgatory.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Something to run once its delay has passed, unless cancelled first. The task is its own list node: a timer
 * links it straight into a bucket, so scheduling allocates nothing and {@link #cancel()} unlinks it in O(1).
 *
 * <p>The field {@code bucket} is the task's whole state, changed only by atomic operations:
 * <pre>
 *   null        not in any bucket: never scheduled, already run, or being moved between buckets by the timer
 *   a bucket    linked into that bucket (changed under the bucket's monitor)
 *   CANCELLED   cancelled; a timer that meets it in this state drops it instead of linking or running it
 * </pre>
 * Because linking ({@code null -> bucket}) and cancelling ({@code anything -> CANCELLED}) are atomic on the
 * same field, one of them always sees the other: a cancel can never be lost to a concurrent re-link.
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

    /** Neighbours in the bucket's list, guarded by the bucket's monitor; {@code next} also chains a flushed batch. */
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
     * Stops the task from running. Returns true if this call removed it from its timer; false if it was not
     * scheduled, was already cancelled, or is being run or moved by the timer right now (a moving task is still
     * dropped instead of being re-linked, but whether a task that is being run completes is the task's business:
     * it must tolerate a cancel that races with its own run).
     */
    public final boolean cancel() {
        TimerBucket previous = (TimerBucket) BUCKET.getAndSet(this, TimerBucket.CANCELLED);
        return previous != null && previous != TimerBucket.CANCELLED && previous.remove(this);
    }

    /** True once {@link #cancel()} has been called and the task was not re-added since. */
    public final boolean isCancelled() {
        return BUCKET.getVolatile(this) == TimerBucket.CANCELLED;
    }

    final TimerBucket bucket() {
        return (TimerBucket) BUCKET.getVolatile(this);
    }
}
