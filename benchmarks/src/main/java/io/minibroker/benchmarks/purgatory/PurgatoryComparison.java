package io.minibroker.benchmarks.purgatory;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The seed purgatory benchmark, run on our purgatory and on Kafka's side by side: for each latency case and
 * completion mode, steps the target rate up and forks one JVM per implementation per step, alternating which
 * implementation goes first, until each falls below 95% of its target. Prints every run's result and accounting
 * lines, then one summary line per case and mode. At the rate where the CPU cost is compared it also runs the
 * harness without any purgatory ({@link HarnessOnlyAdapter}), whose cost both implementations' figures include.
 *
 * <p>Warm-up: each forked JVM first runs an unmeasured pass of a tenth as many requests at the same rate on a
 * separate purgatory instance, then collects garbage, then runs the measured pass. Without it the first part of a
 * run is interpreted, and in event mode that early lag is enough to tip the completion thread into a backlog it
 * never recovers from (see {@link Report}).
 *
 * <p>Usage: {@code PurgatoryComparison [--quick] [--requests N] [--warmup N] [--rates r1,r2,...]
 * [--cases low,high] [--modes force,event]}.
 */
public final class PurgatoryComparison {

    private static final long[] FULL_RATES = {100_000, 200_000, 400_000, 800_000, 1_600_000, 3_200_000};
    private static final int FULL_REQUESTS = 1_000_000;
    /** Quick mode: a tenth of the requests and the lower steps, to check the harness in about a minute. */
    private static final long[] QUICK_RATES = {100_000, 200_000, 400_000, 800_000};
    private static final int QUICK_REQUESTS = 100_000;
    private static final long SEED = 20150922L;
    /** The warm-up pass is a tenth of the measured one unless --warmup says otherwise (0 turns it off). */
    private static final int WARMUP_DIVISOR = 10;

    private PurgatoryComparison() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        int requests = -1;
        int warmup = -1;
        long[] rates = null;
        List<LatencyCase> cases = List.of(LatencyCase.values());
        List<CompletionMode> modes = List.of(CompletionMode.values());
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rates" -> rates = Arrays.stream(args[++i].split(",")).mapToLong(Long::parseLong).toArray();
                case "--cases" -> cases = Arrays.stream(args[++i].split(",")).map(LatencyCase::of).toList();
                case "--modes" -> modes = Arrays.stream(args[++i].split(",")).map(CompletionMode::of).toList();
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (requests < 0) {
            requests = quick ? QUICK_REQUESTS : FULL_REQUESTS;
        }
        if (warmup < 0) {
            warmup = requests / WARMUP_DIVISOR;
        }
        if (rates == null) {
            rates = quick ? QUICK_RATES : FULL_RATES;
        }

        PrintStream out = System.out;
        out.printf("# purgatory comparison: requests=%d rates=%s timeout_ms=%d keys=%d of %d tick_ms=%d wheel=%d"
                        + " purge_interval=%d jvm_flags=[%s] java=%s cores=%d%n",
                requests, Arrays.toString(rates), RunSpec.TIMEOUT_MS, RunSpec.KEYS_PER_REQUEST, RunSpec.KEY_SPACE,
                RunSpec.TICK_MS, RunSpec.WHEEL_SIZE, RunSpec.PURGE_INTERVAL, String.join(" ", ForkedRun.JVM_FLAGS),
                System.getProperty("java.vm.version"), Runtime.getRuntime().availableProcessors());
        out.printf("# each run is a fresh JVM with an unmeasured warm-up pass of %d requests at the same rate;"
                + " implementations alternate which goes first at each step; a run 'kept up' if achieved >= 95%% of"
                + " target%n", warmup);

        Report report = new Report();
        for (LatencyCase latencyCase : cases) {
            for (CompletionMode mode : modes) {
                runSteps(out, report, latencyCase, mode, requests, warmup, rates);
            }
        }
        out.println("# summary");
        for (LatencyCase latencyCase : cases) {
            for (CompletionMode mode : modes) {
                report.printSummary(out, latencyCase, mode);
            }
        }
        report.printProblems(out);
    }

    private static void runSteps(PrintStream out, Report report, LatencyCase latencyCase, CompletionMode mode,
                                 int requests, int warmup, long[] rates) throws Exception {
        Set<String> running = new LinkedHashSet<>(List.of(MinibrokerAdapter.IMPL, KafkaAdapter.IMPL));
        for (int step = 0; step < rates.length && !running.isEmpty(); step++) {
            List<String> order = new ArrayList<>(running);
            if (step % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (String impl : order) {
                RunSpec spec = new RunSpec(impl, latencyCase, mode, rates[step], requests,
                        seed(latencyCase, mode, step), warmup);
                if (!runOne(out, report, spec)) {
                    running.remove(impl);
                }
            }
        }
        long cpuTarget = report.cpuTarget(latencyCase, mode);
        for (int step = 0; step < rates.length; step++) {
            if (rates[step] == cpuTarget) { // none if no run of this case and mode reported: nothing to compare
                runOne(out, report, new RunSpec(HarnessOnlyAdapter.IMPL, latencyCase, mode, cpuTarget, requests,
                        seed(latencyCase, mode, step), warmup));
            }
        }
    }

    /** The same seed for every implementation at a step: they get the identical request stream. */
    private static long seed(LatencyCase latencyCase, CompletionMode mode, int step) {
        return SEED + 31L * step + 7L * latencyCase.ordinal() + mode.ordinal();
    }

    /** The forked run's first line with this prefix, or null. */
    private static String lineStartingWith(ForkedRun.Output output, String prefix) {
        return output.lines().stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
    }

    /** Runs one forked JVM and reports it; returns whether the implementation kept up (so steps on). */
    private static boolean runOne(PrintStream out, Report report, RunSpec spec) throws Exception {
        ForkedRun.Output output = ForkedRun.run(spec);
        String resultLine = lineStartingWith(output, "impl=");
        String sanityLine = lineStartingWith(output, "sanity ");
        String splitLine = lineStartingWith(output, "cpu_split ");
        boolean sane = output.exitCode() == 0 && sanityLine != null && sanityLine.contains("status=OK");
        if (resultLine != null) {
            out.println(resultLine);
        }
        if (splitLine != null) {
            out.println(splitLine);
        }
        if (sanityLine != null) {
            out.println(sanityLine);
        }
        output.lines().stream().filter(l -> l.startsWith("warmup ")).forEach(out::println);
        out.flush();
        if (resultLine == null || !sane) {
            String description = spec.label() + " exit=" + output.exitCode()
                    + (sanityLine == null ? " (no accounting line)" : " " + sanityLine);
            out.println("!!!!!!!! RUN FAILED: " + description);
            if (!output.stderr().isBlank()) {
                output.stderr().lines().limit(40).forEach(l -> out.println("!!! stderr: " + l));
            }
            report.problem(description);
        }
        if (resultLine == null) {
            return false;
        }
        Report.Measured measured = Report.parse(resultLine, splitLine, sanityLine, spec.requests(), sane);
        report.add(measured);
        return measured.keptUp();
    }
}
