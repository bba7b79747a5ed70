package io.minibroker.broker.metrics;

/**
 * The sum, the average and the maximum of values recorded over {@code samples} windows of {@code windowMs}, as Kafka 4.3.1's
 * metrics compute an Avg or a Max stat (a SampledStat): a value goes into the current window, or opens the next one
 * once the current is a window old, {@code samples + 1} windows being kept in turn; a window whose last value is a
 * whole span old ({@code samples x windowMs}) or more is emptied before a measure; with nothing recorded in the
 * windows kept both read NaN, as Kafka's do. Kafka measures a sensor's Avg and Max over its metrics' default windows
 * unless the sensor has a config of its own: {@link #kafkaDefault}.
 */
public final class SampledStat {

    /** Kafka's {@code metrics.num.samples} and {@code metrics.sample.window.ms} defaults, which the broker's metrics use. */
    public static final int DEFAULT_SAMPLES = 2;
    public static final long DEFAULT_WINDOW_MS = 30_000;

    private final long windowMs;
    private final long expireAgeMs;
    private final double[] sums;
    private final double[] maxima;
    private final long[] counts;
    private final long[] startMs;
    private final long[] lastEventMs;
    /** How many windows are in use (they are added one by one, as Kafka's list of samples grows). */
    private int used;
    private int current;

    public SampledStat(int samples, long windowMs) {
        this.windowMs = windowMs;
        this.expireAgeMs = samples * windowMs;
        // Kafka keeps one window more than the samples, so that a window overlapping the span's start still counts.
        this.sums = new double[samples + 1];
        this.maxima = new double[samples + 1];
        this.counts = new long[samples + 1];
        this.startMs = new long[samples + 1];
        this.lastEventMs = new long[samples + 1];
    }

    public static SampledStat kafkaDefault() {
        return new SampledStat(DEFAULT_SAMPLES, DEFAULT_WINDOW_MS);
    }

    public synchronized void record(double value, long nowMs) {
        if (used == 0) {
            used = 1;
            reset(0, nowMs);
        } else if (nowMs - startMs[current] >= windowMs) {
            current = (current + 1) % sums.length;
            if (current >= used) {
                used++;
            }
            reset(current, nowMs);
        }
        sums[current] += value;
        maxima[current] = Math.max(maxima[current], value);
        counts[current]++;
        lastEventMs[current] = nowMs;
    }

    /** Kafka's WindowedSum: the values' sum in the windows kept (0 if none), which a Rate divides by its time. */
    public synchronized double sum(long nowMs) {
        purgeObsolete(nowMs);
        double sum = 0;
        for (int i = 0; i < used; i++) {
            sum += sums[i];
        }
        return sum;
    }

    /**
     * When the oldest window kept began, as Kafka's SampledStat.oldest (which opens a window at {@code nowMs} if
     * there is none): what a Rate measures its time from.
     */
    public synchronized long oldestStartMs(long nowMs) {
        purgeObsolete(nowMs);
        if (used == 0) {
            used = 1;
            reset(0, nowMs);
        }
        long oldest = startMs[0];
        for (int i = 1; i < used; i++) {
            oldest = Math.min(oldest, startMs[i]);
        }
        return oldest;
    }

    /** Kafka's Avg: the values' sum over their count in the windows kept, NaN if none. */
    public synchronized double average(long nowMs) {
        purgeObsolete(nowMs);
        double sum = 0;
        long count = 0;
        for (int i = 0; i < used; i++) {
            sum += sums[i];
            count += counts[i];
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /** Kafka's Max: the largest value in the windows kept, NaN if none. */
    public synchronized double max(long nowMs) {
        purgeObsolete(nowMs);
        double max = Double.NEGATIVE_INFINITY;
        long count = 0;
        for (int i = 0; i < used; i++) {
            max = Math.max(max, maxima[i]);
            count += counts[i];
        }
        return count == 0 ? Double.NaN : max;
    }

    private void reset(int window, long nowMs) {
        sums[window] = 0;
        maxima[window] = Double.NEGATIVE_INFINITY;
        counts[window] = 0;
        startMs[window] = nowMs;
        lastEventMs[window] = nowMs;
    }

    /** Empties every window whose last value is a whole span old or more, as Kafka's purgeObsoleteSamples. */
    private void purgeObsolete(long nowMs) {
        for (int i = 0; i < used; i++) {
            if (nowMs - lastEventMs[i] >= expireAgeMs) {
                reset(i, nowMs);
            }
        }
    }
}
