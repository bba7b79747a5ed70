package io.minibroker.benchmarks.purgatory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a run's CPU went, split four ways: the enqueue thread, the completion thread, every other Java thread
 * (the purgatory's own: our reaper; Kafka's reaper and its timer's executor), and the rest of the process, which
 * is the JVM's native threads (the garbage collector's workers, the JIT compilers, the VM thread).
 *
 * <p>Why: on two cores every thread shares the same two, so the saturation rate is the cores divided by the
 * whole CPU spent per request, harness and JVM included. The split shows how much of that each side's
 * purgatory itself spends on the thread that submits (tryCompleteElseWatch) and on the threads it runs, which is
 * what a machine with a core per thread would be bounded by.
 *
 * <p>Taken as two snapshots on the enqueue thread, around the measured window. The completion thread measures
 * itself ({@link #currentThreadNanos}) because it has ended by the second snapshot. Threads that started inside
 * the window count from zero; threads that ended inside it are lost, and the harness starts and ends none there.
 */
final class CpuBreakdown {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long processNanos;
    private final long enqueueNanos;
    private final Map<Long, Long> otherThreadNanos;

    private CpuBreakdown(long processNanos, long enqueueNanos, Map<Long, Long> otherThreadNanos) {
        this.processNanos = processNanos;
        this.enqueueNanos = enqueueNanos;
        this.otherThreadNanos = otherThreadNanos;
    }

    /** A snapshot, taken on the enqueue thread; {@code completionThreadId} is left out of "other threads". */
    static CpuBreakdown snapshot(long completionThreadId) {
        long self = Thread.currentThread().getId();
        Map<Long, Long> others = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            if (id != self && id != completionThreadId) {
                long nanos = THREADS.getThreadCpuTime(id);
                if (nanos >= 0) { // -1: the thread ended between the two calls
                    others.put(id, nanos);
                }
            }
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new CpuBreakdown(os.getProcessCpuTime(), THREADS.getCurrentThreadCpuTime(), others);
    }

    static long currentThreadNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** The CPU between {@code before} and this snapshot, given the completion thread's own figure. */
    Split since(CpuBreakdown before, long completionNanos) {
        long others = 0;
        for (Map.Entry<Long, Long> thread : otherThreadNanos.entrySet()) {
            others += thread.getValue() - before.otherThreadNanos.getOrDefault(thread.getKey(), 0L);
        }
        long process = processNanos - before.processNanos;
        long enqueue = enqueueNanos - before.enqueueNanos;
        return new Split(process, enqueue, completionNanos, others,
                Math.max(0, process - enqueue - completionNanos - others));
    }

    /** Nanoseconds of CPU: the process's, and its four shares. */
    record Split(long processNanos, long enqueueNanos, long completionNanos, long purgatoryThreadsNanos,
                 long jvmNanos) {
    }
}
