package io.minibroker.benchmarks.purgatory;

import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The event-mode walk on its own, in the calling thread's CPU time (so it can compare two builds on a busy
 * machine): {@code waiting} operations watched on two of the 100 keys each, none of which can complete, and
 * checkAndComplete called on the keys in turn; prints the CPU per watcher visited. With 400,000 operations the
 * watchers (tens of megabytes) do not fit the processor's caches, as in the seed benchmark's event mode.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.minibroker.benchmarks.purgatory.PurgatoryScanCpu [waiting] [rounds]
 * </pre>
 * Our purgatory only: it reaches past the harness's adapters, whose operations expire after the seed's 200 ms.
 */
public final class PurgatoryScanCpu {

    private static final int KEYS = 100;
    private static final int CHECKS_PER_ROUND = 2_000;

    private PurgatoryScanCpu() {
    }

    public static void main(String[] args) throws Exception {
        int waiting = args.length > 0 ? Integer.parseInt(args[0]) : 400_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AtomicIntegerArray conditions = new AtomicIntegerArray(waiting); // never set: every try says "not yet"
        SplittableRandom random = new SplittableRandom(7);
        Integer[] keys = new Integer[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = i;
        }
        try (Purgatory<Waiting> purgatory = Purgatory.<Waiting>builder("scan").build()) {
            for (int i = 0; i < waiting; i++) {
                int first = random.nextInt(KEYS);
                int second = (first + 1 + random.nextInt(KEYS - 1)) % KEYS;
                purgatory.tryCompleteElseWatch(new Waiting(i, conditions), List.of(keys[first], keys[second]));
            }
            double watchersPerCheck = purgatory.watched() / (double) KEYS;
            for (int round = -3; round < rounds; round++) {
                long cpuBefore = threads.getCurrentThreadCpuTime();
                for (int check = 0; check < CHECKS_PER_ROUND; check++) {
                    purgatory.checkAndComplete(keys[check % KEYS]);
                }
                double nanos = (threads.getCurrentThreadCpuTime() - cpuBefore) / (CHECKS_PER_ROUND * watchersPerCheck);
                if (round >= 0) {
                    System.out.printf("round=%d cpu_ns_per_watcher=%.2f watchers_per_key=%.0f%n",
                            round, nanos, watchersPerCheck);
                }
            }
        }
    }

    /** Waits an hour unless its condition is set, which nothing here does. */
    private static final class Waiting extends DelayedOperation {
        private final int request;
        private final AtomicIntegerArray conditions;

        Waiting(int request, AtomicIntegerArray conditions) {
            super(3_600_000);
            this.request = request;
            this.conditions = conditions;
        }

        @Override
        public boolean tryComplete() {
            return conditions.get(request) != 0 && forceComplete();
        }

        @Override
        protected void onComplete() {
        }

        @Override
        protected void onExpiration() {
        }
    }
}
