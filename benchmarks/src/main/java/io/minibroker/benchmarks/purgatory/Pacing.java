package io.minibroker.benchmarks.purgatory;

import java.util.concurrent.locks.LockSupport;

/**
 * How the harness's threads wait for a scheduled moment: they park rather than spin, so that waiting does not
 * burn CPU that would then be charged to the purgatory in cpu_s. The price is that events come in small bursts
 * of about the park granularity (~50-100 us), well under the timer's 1 ms tick.
 */
final class Pacing {

    /** Parking for less than this mostly returns late anyway; act a little early instead. */
    private static final long MIN_PARK_NANOS = 20_000;

    private Pacing() {
    }

    /** Parks until about {@code dueNanos} ({@link System#nanoTime()} scale); answers the time on return. */
    static long awaitNanos(long dueNanos) {
        long now = System.nanoTime();
        while (dueNanos - now > MIN_PARK_NANOS) {
            LockSupport.parkNanos(dueNanos - now);
            now = System.nanoTime();
        }
        return now;
    }

    /** A short park, for a thread that waits on another thread's progress rather than on the clock. */
    static void pause() {
        LockSupport.parkNanos(MIN_PARK_NANOS);
    }
}
