package io.minibroker.benchmarks.timer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link TimerBenchmark#addCancel}'s loop timed in the calling thread's CPU time rather than wall time, for a
 * machine that other work keeps busy (time spent descheduled does not count), so that two builds can be compared
 * alternately while others build. The timer's driver thread runs as in the JMH benchmark, but a task added 30 s
 * ahead and cancelled at once never reaches it.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.timer.TimerPathCpu [timer] [rounds]
 * </pre>
 * {@code timer} is one of {@link TimerBenchmark}'s (minibroker, minibroker-caller-time, kafka, netty, stpe). Prints one line per round
 * of twenty million add+cancel pairs, after two unmeasured ones.
 */
public final class TimerPathCpu {

    private static final int PAIRS_PER_ROUND = 20_000_000;
    private static final long DELAY_MS = 30_000;

    private TimerPathCpu() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "minibroker";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        TimerUnderTest timer = TimerUnderTest.create(name);
        try {
            for (int round = -2; round < rounds; round++) {
                long cpuBefore = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < PAIRS_PER_ROUND; i++) {
                    timer.cancel(timer.schedule(DELAY_MS));
                }
                double nanos = (threads.getCurrentThreadCpuTime() - cpuBefore) / (double) PAIRS_PER_ROUND;
                if (round >= 0) {
                    System.out.printf("timer=%s round=%d cpu_ns_per_add_cancel=%.1f%n", name, round, nanos);
                }
            }
        } finally {
            timer.shutdown();
        }
    }
}
