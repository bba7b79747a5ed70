package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.lock.SpinLocked;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One slot of a timing wheel: an intrusive circular doubly linked list of tasks that expire in the same tick of that
 * wheel, guarded by the bucket's own lock. There is no lock over the whole timer; adds to different buckets
 * never contend.
 *
 * <p>The lock is a {@link SpinLocked} one: every critical section is a handful of pointer writes (a flush walks the
 * list, but only the driver flushes and only buckets that are due, which adders rarely touch), and nothing that can
 * block runs under it (the queue is offered to after unlocking).
 *
 * <p>A slot is reused every rotation, and because adds do not stop the reaper, a bucket can briefly hold tasks of
 * two rotations. That is harmless: a flush re-adds every task it takes, and a task not yet due is linked again.
 * The bucket asks its {@link BucketQueue} to flush it at the earliest expiration linked since its last flush
 * ({@code queuedExpirationMs}); an older queue entry that finds the bucket holding only later tasks is skipped.
 */
final class TimerBucket extends SpinLocked {

    /** The state of a cancelled task; never holds tasks. */
    static final TimerBucket CANCELLED = new TimerBucket();
    /** The state of a task that the driver took from a due bucket; never holds tasks. */
    static final TimerBucket MOVING = new TimerBucket();

    private static final long NOT_QUEUED = Long.MAX_VALUE;
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(TimerBucket.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Linked tasks; written under the lock, read without it by {@link #count()}. */
    private int count;
    /**
     * The first task of a circular list (the last is {@code head.prev}). Why circular, with no tail field: under
     * the G1 collector a store of a young task into an old object (a bucket lives as long as its wheel) takes the
     * write barrier's slow path, a full fence and a card to refine; a tail field took one such store on every
     * add, where a circular list stores into the bucket only when it was empty or loses its first task.
     */
    private TimerTask head;
    private long queuedExpirationMs = NOT_QUEUED;

    /**
     * Links {@code task}, whose state must be {@code from} (idle for a new add, MOVING for a re-add by the
     * driver), to expire with this bucket at {@code expirationMs}. Returns false, linking nothing, if the task
     * left that state meanwhile (it was cancelled).
     */
    boolean add(TimerTask task, TimerBucket from, long expirationMs, BucketQueue queue) {
        boolean offer = false;
        lock();
        try {
            if (!takeOver(task, from)) {
                return false;
            }
            TimerTask first = head;
            if (first == null) {
                task.prev = task;
                task.next = task;
                head = task;
            } else {
                TimerTask last = first.prev;
                task.prev = last;
                task.next = first;
                last.next = task;
                first.prev = task;
            }
            COUNT.setOpaque(this, count + 1);
            if (expirationMs < queuedExpirationMs) {
                queuedExpirationMs = expirationMs;
                offer = true;
            }
        } finally {
            unlock();
        }
        if (offer) {
            // Outside the lock, which must never be held across a blocking call. Should the driver flush this
            // bucket before the entry lands, the entry is merely stale and will be skipped or flush early.
            queue.offer(expirationMs, this);
        }
        return true;
    }

    /**
     * Moves {@code task} from state {@code from} to this bucket; false if it left that state first. From MOVING it
     * is a compare-and-set, since a cancel that moved it to CANCELLED returned true and the task must never run.
     * From idle (a new add) it is a plain check and store, one atomic operation less per add: a cancel that slips
     * in between returned false (the task was not scheduled yet, see {@link TimerTask}), so the add may overwrite
     * it, and it would not have been refused by a cancel a moment earlier either, which the add clears.
     */
    private boolean takeOver(TimerTask task, TimerBucket from) {
        if (from != null) {
            return TimerTask.BUCKET.compareAndSet(task, from, this);
        }
        if (TimerTask.BUCKET.getOpaque(task) != null) {
            return false;
        }
        TimerTask.BUCKET.setRelease(task, this);
        return true;
    }

    /** Unlinks and cancels {@code task} if it is still linked here; false if the timer moved it meanwhile. */
    boolean remove(TimerTask task) {
        lock();
        try {
            if (TimerTask.BUCKET.getAcquire(task) != this) {
                return false;
            }
            TimerTask following = task.next;
            if (following == task) {
                head = null;
            } else {
                task.prev.next = following;
                following.prev = task.prev;
                if (head == task) {
                    head = following;
                }
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
     * If the bucket is due by the queue entry that expired at {@code entryExpirationMs}, moves every task into
     * {@code batch} in the MOVING state, for the driver to re-add or run outside the lock. A stale entry (all
     * tasks linked since the last flush expire later) moves nothing.
     */
    void takeAllIfDue(long entryExpirationMs, TaskBatch batch) {
        lock();
        try {
            if (queuedExpirationMs <= entryExpirationMs) {
                detachAll(batch, MOVING);
            }
        } finally {
            unlock();
        }
    }

    /** Moves every task into {@code batch} in the idle state, regardless of expiration (shutdown). */
    void takeAll(TaskBatch batch) {
        lock();
        try {
            detachAll(batch, null);
        } finally {
            unlock();
        }
    }

    /** The number of linked tasks; exact when no add or cancel is under way. */
    int count() {
        return (int) COUNT.getOpaque(this);
    }

    private void detachAll(TaskBatch batch, TimerBucket newState) {
        TimerTask first = head;
        TimerTask task = first;
        if (task != null) {
            do {
                TimerTask following = task.next;
                task.prev = null;
                task.next = null;
                TimerTask.BUCKET.setRelease(task, newState); // linked tasks change state only under our lock
                batch.add(task);
                task = following;
            } while (task != first);
        }
        head = null;
        queuedExpirationMs = NOT_QUEUED;
        COUNT.setOpaque(this, 0);
    }
}
