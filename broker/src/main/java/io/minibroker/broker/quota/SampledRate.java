package io.minibroker.broker.quota;

/**
 * A rate per second over {@code samples} windows of {@code windowMs}, computed as Kafka's metrics compute the Rate a
 * quota sensor bounds (a SampledStat of windowed sums): a value goes into the current window, a window older than
 * the samples' span is reset before a measure, and the rate is the windows' sum over the time they cover, counted
 * as at least {@code samples - 1} full windows (so that a first burst is not measured over a few milliseconds).
 * Not thread-safe: its owner synchronizes.
 */
final class SampledRate {

    private final long windowMs;
    private final double[] values;
    private final long[] windowStartMs;
    /** How many windows are in use (they are added one by one, as Kafka's list of samples grows). */
    private int used;
    private int current;

    SampledRate(int samples, long windowMs) {
        this.windowMs = windowMs;
        this.values = new double[samples];
        this.windowStartMs = new long[samples];
    }

    /** Adds {@code value} (negative to take back what was recorded) at {@code nowMs}. */
    void record(double value, long nowMs) {
        currentWindow(nowMs);
        if (nowMs - windowStartMs[current] >= windowMs) {
            current = (current + 1) % values.length;
            if (current >= used) {
                used++;
            }
            values[current] = 0;
            windowStartMs[current] = nowMs;
        }
        values[current] += value;
    }

    /** The rate per second at {@code nowMs}. */
    double measure(long nowMs) {
        purgeObsolete(nowMs);
        double sum = 0;
        for (int i = 0; i < used; i++) {
            sum += values[i];
        }
        return sum / (windowSize(nowMs) / 1000.0);
    }

    /** The time, in ms, the rate is measured over at {@code nowMs}: Kafka's Rate.windowSize. */
    long windowSize(long nowMs) {
        purgeObsolete(nowMs);
        currentWindow(nowMs);
        long oldest = windowStartMs[0];
        for (int i = 1; i < used; i++) {
            oldest = Math.min(oldest, windowStartMs[i]);
        }
        long elapsed = nowMs - oldest;
        long fullWindows = elapsed / windowMs;
        int minFullWindows = values.length - 1;
        if (fullWindows < minFullWindows) {
            elapsed += (minFullWindows - fullWindows) * windowMs;
        }
        // At least 1 ms, as Kafka's: with one sample a value at its window's start is otherwise measured over 0 ms,
        // an infinite rate whose throttle time comes out NaN, so nothing would be throttled.
        return Math.max(elapsed, 1);
    }

    private void currentWindow(long nowMs) {
        if (used == 0) {
            used = 1;
            current = 0;
            values[0] = 0;
            windowStartMs[0] = nowMs;
        }
    }

    /** Resets every window that began a whole span ago or more, as Kafka's purgeObsoleteSamples. */
    private void purgeObsolete(long nowMs) {
        long expireAge = values.length * windowMs;
        for (int i = 0; i < used; i++) {
            if (nowMs - windowStartMs[i] >= expireAge) {
                values[i] = 0;
                windowStartMs[i] = nowMs;
            }
        }
    }
}
