package io.minibroker.benchmarks.purgatory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link PurgatoryPathBenchmark}'s loop timed in the calling thread's CPU time rather than wall time, for a
 * machine that other work keeps busy: time spent descheduled does not count, so two builds can be compared
 * while others build. (The purgatory's reaper and the collector are not counted; the loop's operations
 * complete at once, so the reaper has almost nothing to do.)
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.purgatory.PurgatoryPathCpu [impl] [rounds]
 * </pre>
 * Prints one line per round of two million requests, after two unmeasured rounds.
 */
public final class PurgatoryPathCpu {

    private static final int REQUESTS_PER_ROUND = 2_000_000;

    private PurgatoryPathCpu() {
    }

    public static void main(String[] args) throws Exception {
        PurgatoryPathBenchmark path = new PurgatoryPathBenchmark();
        path.impl = args.length > 0 ? args[0] : MinibrokerAdapter.IMPL;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        path.setUp();
        try {
            for (int round = -2; round < rounds; round++) {
                long cpuBefore = threads.getCurrentThreadCpuTime();
                int completed = 0;
                for (int i = 0; i < REQUESTS_PER_ROUND; i++) {
                    completed += path.watchThenForceComplete() ? 1 : 0;
                }
                double nanosPerRequest = (threads.getCurrentThreadCpuTime() - cpuBefore) / (double) REQUESTS_PER_ROUND;
                if (round >= 0) {
                    System.out.printf("impl=%s round=%d cpu_ns_per_request=%.1f completed=%d%n",
                            path.impl, round, nanosPerRequest, completed);
                }
            }
        } finally {
            path.tearDown();
        }
    }
}
