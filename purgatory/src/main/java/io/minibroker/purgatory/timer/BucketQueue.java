package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.Clock;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The buckets that hold tasks, ordered by expiration: what lets the reaper sleep until the earliest non-empty
 * bucket is due instead of ticking every millisecond. It plays the part of the {@code DelayQueue} in Kafka's
 * design but is driven by the timer's {@link io.minibroker.purgatory.time.Clock}, not by {@code System.nanoTime},
 * so a manual clock can drive it too.
 *
 * <p>It is a binary min-heap kept in two parallel arrays (expiration, bucket), so an entry is not an object:
 * offering allocates nothing once the arrays have grown. A bucket is offered once per rotation at most (plus
 * rare stale duplicates, see {@link TimerBucket}), so the heap stays as small as the number of live buckets, and
 * its lock is taken far less often than once per task.
 */
final class BucketQueue {

    private static final int INITIAL_CAPACITY = 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition earlierHead = lock.newCondition();
    private long[] expirations = new long[INITIAL_CAPACITY];
    private TimerBucket[] buckets = new TimerBucket[INITIAL_CAPACITY];
    private int size;
    private boolean wakeUpPending;

    void offer(long expirationMs, TimerBucket bucket) {
        lock.lock();
        try {
            if (size == expirations.length) {
                grow();
            }
            int index = size++;
            while (index > 0) {
                int parent = (index - 1) >>> 1;
                if (expirations[parent] <= expirationMs) {
                    break;
                }
                expirations[index] = expirations[parent];
                buckets[index] = buckets[parent];
                index = parent;
            }
            expirations[index] = expirationMs;
            buckets[index] = bucket;
            if (index == 0) {
                earlierHead.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes up to {@code bucketsOut.length} entries that are due at {@code nowMs}, earliest first, into the two
     * arrays, and returns how many.
     */
    int pollDue(long nowMs, long[] expirationsOut, TimerBucket[] bucketsOut) {
        lock.lock();
        try {
            int polled = 0;
            while (polled < bucketsOut.length && size > 0 && expirations[0] <= nowMs) {
                expirationsOut[polled] = expirations[0];
                bucketsOut[polled] = buckets[0];
                polled++;
                removeHead();
            }
            return polled;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the earliest entry is due (following earlier entries offered meanwhile), {@link #wakeUp()} is
     * called, or {@code maxWaitMs} passes, whichever is first. Returns at once if an entry is due already, or if
     * a wake-up came while nobody was waiting: a wake-up is never lost.
     */
    void awaitDue(Clock clock, long maxWaitMs) throws InterruptedException {
        lock.lock();
        try {
            long endMs = clock.nowMs() + maxWaitMs;
            while (!wakeUpPending) {
                long untilMs = size == 0 ? endMs : Math.min(endMs, expirations[0]);
                long waitMs = untilMs - clock.nowMs();
                if (waitMs <= 0) {
                    return;
                }
                earlierHead.await(waitMs, TimeUnit.MILLISECONDS);
            }
            wakeUpPending = false;
        } finally {
            lock.unlock();
        }
    }

    void wakeUp() {
        lock.lock();
        try {
            wakeUpPending = true;
            earlierHead.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void removeHead() {
        int last = --size;
        long movedExpiration = expirations[last];
        TimerBucket movedBucket = buckets[last];
        buckets[last] = null;
        if (last == 0) {
            return;
        }
        int index = 0;
        int half = last >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            if (child + 1 < last && expirations[child + 1] < expirations[child]) {
                child++;
            }
            if (movedExpiration <= expirations[child]) {
                break;
            }
            expirations[index] = expirations[child];
            buckets[index] = buckets[child];
            index = child;
        }
        expirations[index] = movedExpiration;
        buckets[index] = movedBucket;
    }

    private void grow() {
        int capacity = expirations.length * 2;
        expirations = Arrays.copyOf(expirations, capacity);
        buckets = Arrays.copyOf(buckets, capacity);
    }
}
