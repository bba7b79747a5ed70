package io.minibroker.purgatory.timer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One slot of a timing wheel: an intrusive doubly linked list of tasks that expire in the same tick of that
 * wheel, guarded by the bucket's own lock. There is no lock over the whole timer; adds to different buckets
 * never contend.
 *
 * <p>The lock is a spin lock: every critical section is a handful of pointer writes (a flush walks the list, but
 * only the reaper flushes and only buckets that are due, which adders rarely touch). Taking it is one
 * compare-and-set and releasing it a plain release store, where a monitor costs two compare-and-sets; a waiter
 * spins briefly and then yields, so a lock holder that lost its core is not starved.
 *
 * <p>A slot is reused every rotation, and because adds do not stop the reaper, a bucket can briefly hold tasks of
 * two rotations. That is harmless: a flush re-adds every task it takes, and a task not yet due is linked again.
 * The bucket asks its {@link BucketQueue} to flush it at the earliest expiration linked since its last flush
 * ({@code queuedExpirationMs}); an older queue entry that finds the bucket holding only later tasks is skipped.
 */
final class TimerBucket {

    /** The state of a cancelled task; never holds tasks. */
    static final TimerBucket CANCELLED = new TimerBucket();

    private static final long NOT_QUEUED = Long.MAX_VALUE;
    private static final int SPINS_BEFORE_YIELD = 64;
    private static final VarHandle LOCKED;
    private static final VarHandle COUNT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCKED = lookup.findVarHandle(TimerBucket.class, "locked", int.class);
            COUNT = lookup.findVarHandle(TimerBucket.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through LOCKED
    private volatile int locked;
    /** Linked tasks; written under the lock, read without it by {@link #count()}. */
    private int count;
    private TimerTask head;
    private TimerTask tail;
    private long queuedExpirationMs = NOT_QUEUED;

    /**
     * Links {@code task}, which must not be in any bucket, to expire with this bucket at {@code expirationMs}.
     * Returns false if it was cancelled before it could be linked.
     */
    boolean add(TimerTask task, long expirationMs, BucketQueue queue) {
        lock();
        try {
            if (!TimerTask.BUCKET.compareAndSet(task, null, this)) {
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
            COUNT.setOpaque(this, count + 1);
            if (expirationMs < queuedExpirationMs) {
                // Lock order is always bucket -> queue; the reaper never holds the queue while taking a bucket.
                queuedExpirationMs = expirationMs;
                queue.offer(expirationMs, this);
            }
            return true;
        } finally {
            unlock();
        }
    }

    /** Unlinks and cancels {@code task} if it is still linked here; false if the timer moved it meanwhile. */
    boolean remove(TimerTask task) {
        lock();
        try {
            if (TimerTask.BUCKET.getAcquire(task) != this) {
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
            COUNT.setOpaque(this, count - 1);
            TimerTask.BUCKET.setRelease(task, CANCELLED);
            return true;
        } finally {
            unlock();
        }
    }

    /**
     * Takes every task if the bucket is due by the queue entry that expired at {@code entryExpirationMs}, and
     * returns them chained through {@code next}, each in the "in no bucket" state, for the caller to re-add or
     * run outside the lock. Returns null if nothing was due.
     */
    TimerTask takeAllIfDue(long entryExpirationMs) {
        lock();
        try {
            if (queuedExpirationMs > entryExpirationMs) {
                return null; // a stale queue entry: everything linked since the last flush expires later
            }
            return detachAll();
        } finally {
            unlock();
        }
    }

    /** Takes every task regardless of its expiration, as {@link #takeAllIfDue} does. */
    TimerTask takeAll() {
        lock();
        try {
            return detachAll();
        } finally {
            unlock();
        }
    }

    /** The number of linked tasks; exact when no add or cancel is under way. */
    int count() {
        return (int) COUNT.getOpaque(this);
    }

    private TimerTask detachAll() {
        TimerTask taken = head;
        for (TimerTask task = head; task != null; task = task.next) {
            task.prev = null;
            TimerTask.BUCKET.setRelease(task, null); // linked tasks change state only under our lock
        }
        head = null;
        tail = null;
        queuedExpirationMs = NOT_QUEUED;
        COUNT.setOpaque(this, 0);
        return taken;
    }

    private void lock() {
        int spins = 0;
        while (!LOCKED.compareAndSet(this, 0, 1)) {
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private void unlock() {
        LOCKED.setRelease(this, 0);
    }
}
