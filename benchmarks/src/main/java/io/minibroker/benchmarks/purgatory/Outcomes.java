package io.minibroker.benchmarks.purgatory;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What happened to each request, recorded by the operations' callbacks of either implementation, so the
 * harness can prove that every request completed or expired exactly once.
 *
 * <p>A per-request counter (4 bytes a request) catches a lost or doubled completion that two totals could hide
 * by cancelling out. Both implementations pay the same atomic increment per completion.
 */
public final class Outcomes {

    private final AtomicIntegerArray onCompleteCalls;
    private final LongAdder onComplete = new LongAdder();
    private final LongAdder onExpiration = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder earlyExpirations = new LongAdder();
    private final long earliestExpiryNanos;

    /**
     * @param timeoutMs the operations' delay; an expiry sooner than that after the operation was created is a
     *                  timer bug. One millisecond is allowed for the millisecond clocks both timers read.
     */
    public Outcomes(int requests, long timeoutMs) {
        this.onCompleteCalls = new AtomicIntegerArray(requests);
        this.earliestExpiryNanos = (timeoutMs - 1) * 1_000_000L;
    }

    /** To be called from every operation's onComplete. */
    public void completed(int request) {
        if (onCompleteCalls.incrementAndGet(request) != 1) {
            duplicates.increment();
        }
        onComplete.increment();
    }

    /** To be called from every operation's onExpiration, with the operation's creation time. */
    public void expired(long createdNanos) {
        onExpiration.increment();
        if (System.nanoTime() - createdNanos < earliestExpiryNanos) {
            earlyExpirations.increment();
        }
    }

    /** Expirations that came before the timeout had passed. */
    public long earlyExpirationCount() {
        return earlyExpirations.sum();
    }

    public long onCompleteCount() {
        return onComplete.sum();
    }

    public long expiredCount() {
        return onExpiration.sum();
    }

    public long duplicateCount() {
        return duplicates.sum();
    }

    /** Requests whose onComplete never ran; a full scan, so call it once at the end. */
    public long missingCount() {
        long missing = 0;
        for (int i = 0, n = onCompleteCalls.length(); i < n; i++) {
            if (onCompleteCalls.get(i) == 0) {
                missing++;
            }
        }
        return missing;
    }
}
