package io.minibroker.benchmarks.purgatory;

import java.util.List;

/**
 * Everything that defines one run, passed to the forked JVM as plain arguments so a run can also be repeated by
 * hand: {@code java -Xmx200m -cp benchmarks.jar io.minibroker.benchmarks.purgatory.SingleRun <args>}.
 */
public record RunSpec(String impl, LatencyCase latencyCase, CompletionMode mode, long targetRps, int requests,
                      long seed, int warmupRequests) {

    /** The seed benchmark's constants; the same for both implementations. */
    public static final long TIMEOUT_MS = 200;
    public static final long TIMEOUT_NANOS = TIMEOUT_MS * 1_000_000L;
    public static final int KEY_SPACE = 100;
    public static final int KEYS_PER_REQUEST = 3;
    public static final long TICK_MS = 1;
    public static final int WHEEL_SIZE = 20;
    public static final int PURGE_INTERVAL = 1000;

    public List<String> toArgs() {
        return List.of(impl, latencyCase.label(), mode.label(), Long.toString(targetRps), Integer.toString(requests),
                Long.toString(seed), Integer.toString(warmupRequests));
    }

    public static RunSpec fromArgs(String[] args) {
        if (args.length != 7) {
            throw new IllegalArgumentException("usage: SingleRun <minibroker|kafka-4.4.0|none> <low|high> <force|event>"
                    + " <target_rps> <requests> <seed> <warmup_requests>");
        }
        return new RunSpec(args[0], LatencyCase.of(args[1]), CompletionMode.of(args[2]), Long.parseLong(args[3]),
                Integer.parseInt(args[4]), Long.parseLong(args[5]), Integer.parseInt(args[6]));
    }

    /** The unmeasured pass that runs first in the same JVM: same rate and settings, its own seed. */
    public RunSpec warmup() {
        return new RunSpec(impl, latencyCase, mode, targetRps, warmupRequests, seed ^ 0x5DEECE66DL, 0);
    }

    /** The key fields of the result line, in the order the report prints them. */
    public String label() {
        return "impl=" + impl + " case=" + latencyCase.label() + " mode=" + mode.label() + " target_rps=" + targetRps;
    }
}
