package io.minibroker.purgatory.timer;

import java.util.concurrent.atomic.LongAdder;

/**
 * One slot of a timing wheel: an intrusive doubly linked list of tasks that expire in the same tick of that
 * wheel, guarded by the bucket's own monitor. There is no lock over the whole timer; adds to different buckets
 * never contend.
 *
 * <p>A slot is reused every rotation, and because adds do not stop the reaper, a bucket can briefly hold tasks of
 * two rotations. That is harmless: a flush re-adds every task it takes, and a task not yet due is linked again.
 * The bucket asks its {@link BucketQueue} to flush it at the earliest expiration linked since its last flush
 * ({@code queuedExpirationMs}); an older queue entry that finds the bucket holding only later tasks is skipped.
 */
final class TimerBucket {

    /** The state of a cancelled task; never holds tasks. */
    static final TimerBucket CANCELLED = new TimerBucket(null);

    private static final long NOT_QUEUED = Long.MAX_VALUE;

    private final LongAdder pending;

    private TimerTask head;
    private TimerTask tail;
    private long queuedExpirationMs = NOT_QUEUED;

    TimerBucket(LongAdder pending) {
        this.pending = pending;
    }

    /**
     * Links {@code task}, which must not be in any bucket, to expire with this bucket at {@code expirationMs}.
     * Returns false, and drops the task from the pending count, if it was cancelled before it could be linked.
     */
    synchronized boolean add(TimerTask task, long expirationMs, BucketQueue queue) {
        if (!TimerTask.BUCKET.compareAndSet(task, null, this)) {
            pending.decrement();
            return false;
        }
        task.next = null;
        task.prev = tail;
        if (tail == null) {
            head = task;
        } else {
            tail.next = task;
        }
        tail = task;
        if (expirationMs < queuedExpirationMs) {
            // Lock order is always bucket -> queue; the reaper never holds the queue while taking a bucket.
            queuedExpirationMs = expirationMs;
            queue.offer(expirationMs, this);
        }
        return true;
    }

    /** Unlinks a task that a cancel took from this bucket, if a flush has not taken it already. */
    synchronized boolean remove(TimerTask task) {
        if (task.prev == null && head != task) {
            return false;
        }
        if (task.prev == null) {
            head = task.next;
        } else {
            task.prev.next = task.next;
        }
        if (task.next == null) {
            tail = task.prev;
        } else {
            task.next.prev = task.prev;
        }
        task.prev = null;
        task.next = null;
        pending.decrement();
        return true;
    }

    /**
     * Takes every task if the bucket is due by the queue entry that expired at {@code entryExpirationMs}, and
     * returns them chained through {@code next}, each in the "not in any bucket" state, for the caller to re-add
     * or run outside this monitor. Tasks cancelled meanwhile are dropped here. Returns null if nothing was due.
     */
    synchronized TimerTask takeAllIfDue(long entryExpirationMs) {
        if (queuedExpirationMs > entryExpirationMs) {
            return null; // a stale queue entry: everything linked since the last flush expires later
        }
        queuedExpirationMs = NOT_QUEUED;
        return detachAll();
    }

    /** Takes every task regardless of its expiration, as {@link #takeAllIfDue} does. */
    synchronized TimerTask takeAll() {
        queuedExpirationMs = NOT_QUEUED;
        return detachAll();
    }

    private TimerTask detachAll() {
        TimerTask taken = null;
        TimerTask takenTail = null;
        TimerTask task = head;
        while (task != null) {
            TimerTask following = task.next;
            task.prev = null;
            task.next = null;
            if (TimerTask.BUCKET.compareAndSet(task, this, null)) {
                if (takenTail == null) {
                    taken = task;
                } else {
                    takenTail.next = task;
                }
                takenTail = task;
            } else {
                pending.decrement(); // cancelled while linked; its cancel found it gone and left the count to us
            }
            task = following;
        }
        head = null;
        tail = null;
        return taken;
    }
}
