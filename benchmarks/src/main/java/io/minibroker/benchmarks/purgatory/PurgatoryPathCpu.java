package io.minibroker.benchmarks.purgatory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link PurgatoryPathBenchmark}'s loop timed in CPU time rather than wall time, for a machine that other work
 * keeps busy: time spent descheduled does not count, so two builds can be compared while others build.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.purgatory.PurgatoryPathCpu [impl] [rounds] [waiting]
 * </pre>
 * With {@code waiting} 0 (the default) each request is force-completed at once, and the figure that matters is
 * the calling thread's CPU ({@code cpu_ns_per_request}). With {@code waiting} N, each request is force-completed
 * only after N more have been submitted, so N operations wait at any time and live through young collections as
 * the seed benchmark's do; then the process's CPU ({@code process_cpu_ns_per_request}: the collector, the JIT and
 * the purgatory's reaper included) shows what the waiting operations cost the collector. N must stay below the
 * request ring ({@value PurgatoryPathBenchmark#RING}), and N requests must take less than the seed's 200 ms
 * timeout to submit, or some expire. Prints one line per round of two million requests, after two unmeasured ones.
 */
public final class PurgatoryPathCpu {

    private static final int REQUESTS_PER_ROUND = 2_000_000;

    private PurgatoryPathCpu() {
    }

    public static void main(String[] args) throws Exception {
        PurgatoryPathBenchmark path = new PurgatoryPathBenchmark();
        path.impl = args.length > 0 ? args[0] : MinibrokerAdapter.IMPL;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int waiting = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        if (waiting < 0 || waiting >= PurgatoryPathBenchmark.RING) {
            throw new IllegalArgumentException("waiting must be in [0, " + PurgatoryPathBenchmark.RING + "): " + waiting);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BenchOperation[] pending = new BenchOperation[Math.max(waiting, 1)];
        path.setUp();
        try {
            int slot = 0;
            for (int round = -2; round < rounds; round++) {
                long cpuBefore = threads.getCurrentThreadCpuTime();
                long processBefore = os.getProcessCpuTime();
                int completed = 0;
                for (int i = 0; i < REQUESTS_PER_ROUND; i++) {
                    BenchOperation op = path.submit();
                    if (waiting == 0) {
                        completed += op.forceCompleteNow() ? 1 : 0;
                    } else {
                        BenchOperation due = pending[slot];
                        pending[slot] = op;
                        slot = slot + 1 == waiting ? 0 : slot + 1;
                        completed += due != null && due.forceCompleteNow() ? 1 : 0;
                    }
                }
                double threadNanos = (threads.getCurrentThreadCpuTime() - cpuBefore) / (double) REQUESTS_PER_ROUND;
                double processNanos = (os.getProcessCpuTime() - processBefore) / (double) REQUESTS_PER_ROUND;
                if (round >= 0) {
                    System.out.printf("impl=%s waiting=%d round=%d cpu_ns_per_request=%.1f process_cpu_ns_per_request=%.1f"
                            + " completed=%d%n", path.impl, waiting, round, threadNanos, processNanos, completed);
                }
            }
        } finally {
            path.tearDown();
        }
    }
}
