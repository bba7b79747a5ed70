package io.minibroker.benchmarks.purgatory;

import java.util.concurrent.locks.LockSupport;

/**
 * How the harness's threads wait for a scheduled moment: they park rather than spin, so that waiting does not
 * burn CPU that would then be charged to the purgatory in cpu_s.
 *
 * <p>Each park costs a few microseconds of CPU (a futex wait, a timer, a context switch), and at hundreds of
 * thousands of requests a second, parking for every small gap made the harness itself cost about a microsecond
 * per request, the same for both implementations, hiding the difference between them in cpu_s. So a thread that
 * is ahead of its schedule parks for at least {@link #MIN_PARK_NANOS} and then does at once everything that came
 * due meanwhile: events come in bursts of about a fifth of a millisecond, still well under the timer's 1 ms tick,
 * and never more than {@link #EARLY_NANOS} early.
 */
final class Pacing {

    /** A thread may act this much before the scheduled moment rather than park. */
    private static final long EARLY_NANOS = 20_000;
    /** The shortest park; what comes due during it is done late by at most this much plus the wake-up latency. */
    private static final long MIN_PARK_NANOS = 200_000;
    /** How long a thread waiting on another thread's progress parks before it looks again. */
    private static final long PAUSE_NANOS = 20_000;

    private Pacing() {
    }

    /** Parks until about {@code dueNanos} ({@link System#nanoTime()} scale); answers the time on return. */
    static long awaitNanos(long dueNanos) {
        long now = System.nanoTime();
        while (dueNanos - now > EARLY_NANOS) {
            LockSupport.parkNanos(Math.max(dueNanos - now, MIN_PARK_NANOS));
            now = System.nanoTime();
        }
        return now;
    }

    /** A short park, for a thread that waits on another thread's progress rather than on the clock. */
    static void pause() {
        LockSupport.parkNanos(PAUSE_NANOS);
    }
}
