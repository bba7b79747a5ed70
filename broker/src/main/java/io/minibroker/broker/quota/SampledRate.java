package io.minibroker.broker.quota;

import io.minibroker.broker.metrics.SampledStat;

/**
 * A rate per second of the values recorded in the windows of a {@link SampledStat} (Kafka's WindowedSum), as Kafka's
 * metrics compute the rate a quota sensor bounds: a Rate, whose sum is divided by the time from the oldest window's
 * start, counted as at least {@code samples - 1} full windows (so that a first burst is not measured over a few
 * milliseconds); or for the replication quotas a SimpleRate, whose time is at least one window.
 * Not thread-safe: its owner synchronizes.
 */
final class SampledRate {

    private final SampledStat sums;
    private final int samples;
    private final long windowMs;
    private final boolean simple;

    /** Kafka's Rate over {@code samples} windows of {@code windowMs}. */
    SampledRate(int samples, long windowMs) {
        this(samples, windowMs, false);
    }

    private SampledRate(int samples, long windowMs, boolean simple) {
        this.sums = new SampledStat(samples, windowMs);
        this.samples = samples;
        this.windowMs = windowMs;
        this.simple = simple;
    }

    /** Kafka's SimpleRate, which ReplicationQuotaManager bounds: measured over at least one window. */
    static SampledRate simple(int samples, long windowMs) {
        return new SampledRate(samples, windowMs, true);
    }

    /** Adds {@code value} (negative to take back what was recorded) at {@code nowMs}. */
    void record(double value, long nowMs) {
        sums.record(value, nowMs);
    }

    /** The rate per second at {@code nowMs}. */
    double measure(long nowMs) {
        return sums.sum(nowMs) / (windowSize(nowMs) / 1000.0);
    }

    /** The time, in ms, the rate is measured over at {@code nowMs}: Kafka's Rate.windowSize (or SimpleRate's). */
    long windowSize(long nowMs) {
        long elapsed = nowMs - sums.oldestStartMs(nowMs);
        if (simple) {
            return Math.max(elapsed, windowMs);
        }
        long fullWindows = elapsed / windowMs;
        int minFullWindows = samples - 1;
        if (fullWindows < minFullWindows) {
            elapsed += (minFullWindows - fullWindows) * windowMs;
        }
        // At least 1 ms, as Kafka's: with one sample a value at its window's start is otherwise measured over 0 ms,
        // an infinite rate whose throttle time comes out NaN, so nothing would be throttled.
        return Math.max(elapsed, 1);
    }
}
