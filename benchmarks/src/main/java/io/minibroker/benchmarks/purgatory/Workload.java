package io.minibroker.benchmarks.purgatory;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The requests of one run, drawn up front from a seed: arrival offsets, completion latencies and watched keys.
 *
 * <p>Drawing everything before the clock starts keeps random-number generation out of the enqueue loop, so the
 * loop measures the purgatory and not the generator, and the same seed gives both implementations the identical
 * request stream. The arrays are primitive, so they cost the garbage collector nothing to scan.
 */
public final class Workload {

    /** Arrival time of each request, in nanoseconds after the start; exponential gaps make a Poisson stream. */
    final long[] arrivalNanos;
    /** Completion latency of each request in nanoseconds; at or above the timeout means it will expire. */
    final long[] latencyNanos;
    /** Key indices, {@link RunSpec#KEYS_PER_REQUEST} per request, distinct within a request. */
    final int[] keys;
    /**
     * The requests the completion thread completes (latency below the timeout), in the order of their scheduled
     * arrival + latency, which is the order it meets them when arrivals keep to the schedule.
     */
    final int[] completionOrder;

    private Workload(long[] arrivalNanos, long[] latencyNanos, int[] keys) {
        this.arrivalNanos = arrivalNanos;
        this.latencyNanos = latencyNanos;
        this.keys = keys;
        this.completionOrder = completionOrder(arrivalNanos, latencyNanos);
    }

    /** Whether the completion thread completes this request (its latency is below the timeout), else it expires. */
    boolean completes(int request) {
        return completes(latencyNanos[request]);
    }

    /** How many requests the completion thread completes. */
    int toComplete() {
        return completionOrder.length;
    }

    private static boolean completes(long latencyNanos) {
        return latencyNanos < RunSpec.TIMEOUT_NANOS;
    }

    public int size() {
        return arrivalNanos.length;
    }

    public static Workload generate(RunSpec spec) {
        int n = spec.requests();
        SplittableRandom random = new SplittableRandom(spec.seed());
        long[] arrivals = new long[n];
        long[] latencies = new long[n];
        int[] keys = new int[n * RunSpec.KEYS_PER_REQUEST];
        double meanGapNanos = 1e9 / spec.targetRps();
        double t = 0;
        for (int i = 0; i < n; i++) {
            arrivals[i] = (long) t;
            t += -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
            double latencyMs = spec.latencyCase().latencyMs(nextGaussian(random));
            latencies[i] = (long) Math.min(latencyMs * 1e6, Long.MAX_VALUE / 4.0);
            drawDistinctKeys(random, keys, i * RunSpec.KEYS_PER_REQUEST);
        }
        return new Workload(arrivals, latencies, keys);
    }

    /**
     * Sorts the completing requests by due time without boxing: each becomes one long, due time * n + index,
     * whose natural order is by due time and then by index.
     */
    private static int[] completionOrder(long[] arrivalNanos, long[] latencyNanos) {
        int n = arrivalNanos.length;
        long[] dueAndIndex = new long[n];
        int toComplete = 0;
        for (int i = 0; i < n; i++) {
            if (completes(latencyNanos[i])) {
                dueAndIndex[toComplete++] = Math.addExact(Math.multiplyExact(arrivalNanos[i] + latencyNanos[i], (long) n), i);
            }
        }
        Arrays.sort(dueAndIndex, 0, toComplete);
        int[] order = new int[toComplete];
        for (int j = 0; j < toComplete; j++) {
            order[j] = (int) (dueAndIndex[j] % n);
        }
        return order;
    }

    private static void drawDistinctKeys(SplittableRandom random, int[] keys, int offset) {
        for (int k = 0; k < RunSpec.KEYS_PER_REQUEST; k++) {
            int key;
            boolean repeated;
            do {
                key = random.nextInt(RunSpec.KEY_SPACE);
                repeated = false;
                for (int j = 0; j < k; j++) {
                    repeated |= keys[offset + j] == key;
                }
            } while (repeated);
            keys[offset + k] = key;
        }
    }

    /** Box-Muller; SplittableRandom has no nextGaussian on Java 17. */
    private static double nextGaussian(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble(); // (0, 1], so the log is finite
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
