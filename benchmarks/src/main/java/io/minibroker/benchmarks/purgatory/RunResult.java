package io.minibroker.benchmarks.purgatory;

import java.util.Locale;

/** The measurements and the accounting of one run, and the two lines it prints. */
record RunResult(RunSpec spec, long achievedRps, CpuBreakdown.Split cpu, long gcMillis, long requests,
                 long expectedTriggered, long onComplete, long expired, long earlyExpired, long missing, long duplicates,
                 long delayedLeft, long watchedLeft, double completionLateMeanMs, double completionLateMaxMs,
                 Throwable completionFailure) {

    /** The machine-readable result line, exactly as the report parses it. */
    String line() {
        return String.format(Locale.ROOT, "%s achieved_rps=%d cpu_s=%.3f gc_ms=%d",
                spec.label(), achievedRps, cpu.processNanos() / 1e9, gcMillis);
    }

    /**
     * Where cpu_s went ({@link CpuBreakdown}), in seconds: the enqueue thread, the completion thread, the other
     * Java threads (the purgatory's own) and the JVM's native threads (collector, compilers).
     */
    String cpuSplitLine() {
        return String.format(Locale.ROOT,
                "cpu_split %s enqueue_s=%.3f completion_s=%.3f purgatory_threads_s=%.3f jvm_s=%.3f",
                spec.label(), cpu.enqueueNanos() / 1e9, cpu.completionNanos() / 1e9,
                cpu.purgatoryThreadsNanos() / 1e9, cpu.jvmNanos() / 1e9);
    }

    /**
     * Every request completed or expired exactly once: onComplete ran once for each (no request missing, none
     * twice), none expired before its timeout, and the purgatory holds nothing in its timer afterwards.
     */
    boolean sane() {
        return onComplete == requests && missing == 0 && duplicates == 0 && delayedLeft == 0
                && earlyExpired == 0 && completionFailure == null;
    }

    /**
     * The accounting line. {@code triggered} counts completions by the completion thread (onComplete minus
     * expirations); it may fall a little short of {@code expected_triggered} when the completion thread runs late
     * and a request with a latency just under the timeout expires first, which is legitimate.
     */
    String sanityLine() {
        String status = sane() ? "OK" : "FAILED !!!!!!!! ACCOUNTING CHECK FAILED !!!!!!!!";
        String failure = completionFailure == null ? "" : " completion_thread_failure=" + completionFailure;
        return String.format(Locale.ROOT,
                "sanity %s requests=%d on_complete=%d expired=%d early_expired=%d triggered=%d expected_triggered=%d missing=%d"
                        + " duplicates=%d delayed_left=%d watched_left=%d completion_late_ms_mean=%.1f completion_late_ms_max=%.1f"
                        + " status=%s%s",
                spec.label(), requests, onComplete, expired, earlyExpired, onComplete - expired, expectedTriggered, missing,
                duplicates, delayedLeft, watchedLeft, completionLateMeanMs, completionLateMaxMs, status, failure);
    }
}
