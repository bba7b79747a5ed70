package io.minibroker.benchmarks.purgatory;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * One run in its own JVM: enqueues the workload into one purgatory at the target rate, lets the completion
 * thread and the timeouts finish every request, and prints the result line and the sanity line.
 *
 * <p>The enqueue thread paces itself by the precomputed schedule: whenever it is ahead it parks until the next
 * arrival, and whenever it is behind it submits without pausing, so a purgatory that cannot keep up shows as an
 * achieved rate below the target (see {@link Pacing} for how it waits). It hands each request to the
 * {@link CompletionThread} through arrays, not a queue, so the harness adds no lock of its own to the
 * purgatory's.
 */
public final class SingleRun {

    /** How long past the last timeout a run may take to account for every request before it is flagged. */
    private static final long DRAIN_GRACE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private SingleRun() {
    }

    public static void main(String[] args) throws Exception {
        RunSpec spec = RunSpec.fromArgs(args);
        boolean warmupSane = true;
        if (spec.warmupRequests() > 0) {
            // Same code paths on a separate purgatory instance, so the measured pass starts with compiled code
            // rather than spending its first part in the interpreter. Its result is only checked, not reported.
            RunResult warmup = run(spec.warmup());
            warmupSane = warmup.sane();
            if (!warmupSane) {
                System.out.println("warmup " + warmup.sanityLine());
            }
            System.gc();
        }
        RunResult result = run(spec);
        System.out.println(result.line());
        System.out.println(result.cpuSplitLine());
        System.out.println(result.sanityLine());
        System.out.flush();
        // Kafka's timer executor thread is not a daemon; exit explicitly whatever the adapters leave behind. A
        // failed accounting check in the warm-up pass fails the run too: it is the same purgatory code.
        System.exit(result.sane() && warmupSane ? 0 : 2);
    }

    static RunResult run(RunSpec spec) throws Exception {
        Workload workload = Workload.generate(spec);
        Outcomes outcomes = new Outcomes(workload.size(), RunSpec.TIMEOUT_MS);
        Conditions conditions = new Conditions(workload.size());
        PurgatoryAdapter adapter = PurgatoryAdapter.create(spec.impl(), outcomes, conditions);
        CompletionThread completer = new CompletionThread(adapter, spec.mode(), conditions, workload);
        completer.start();

        int n = workload.size();
        long[] arrivals = workload.arrivalNanos;
        int[] keys = workload.keys;

        long gcBefore = gcMillis();
        CpuBreakdown cpuBefore = CpuBreakdown.snapshot(completer.getId());
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        long firstEnqueue = 0;
        long lastEnqueue = 0;
        for (int i = 0; i < n; i++) {
            long now = Pacing.awaitNanos(start + arrivals[i]);
            int k = i * RunSpec.KEYS_PER_REQUEST;
            completer.submitted(i, adapter.submit(i, keys[k], keys[k + 1], keys[k + 2]), now);
            if (i == 0) {
                firstEnqueue = now;
            }
            lastEnqueue = now;
        }

        // Every request is answered within one timeout of its arrival (plus reaper latency); wait for all of them.
        long deadline = lastEnqueue + RunSpec.TIMEOUT_NANOS + DRAIN_GRACE_NANOS;
        while (outcomes.onCompleteCount() < n && System.nanoTime() - deadline < 0) {
            Thread.sleep(2);
        }
        completer.join(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadline - System.nanoTime())) + 1);
        CpuBreakdown.Split cpu = CpuBreakdown.snapshot(completer.getId()).since(cpuBefore, completer.cpuNanos());
        long gc = gcMillis() - gcBefore;

        // A short pause lets late duplicate completions, if any, show in the counts before they are read.
        Thread.sleep(50);
        long delayedLeft = adapter.numDelayed();
        long watchedLeft = adapter.watched();
        adapter.shutdown();

        double elapsedSeconds = (lastEnqueue - firstEnqueue) / 1e9;
        long achievedRps = elapsedSeconds > 0 ? Math.round(n / elapsedSeconds) : 0;
        return new RunResult(spec, achievedRps, cpu, gc, n, workload.toComplete(), outcomes.onCompleteCount(),
                outcomes.expiredCount(), outcomes.earlyExpirationCount(), outcomes.missingCount(), outcomes.duplicateCount(), delayedLeft,
                watchedLeft, completer.meanLateMs(), completer.maxLateMs(), completer.failure());
    }

    /** Milliseconds the collectors have spent so far. */
    private static long gcMillis() {
        long gc = 0;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, bean.getCollectionTime());
        }
        return gc;
    }
}
