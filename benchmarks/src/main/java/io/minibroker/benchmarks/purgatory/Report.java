package io.minibroker.benchmarks.purgatory;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Collects the result lines of the forked runs and prints, per case and mode, the saturation rate of each
 * implementation and the CPU cost per request at the highest target both kept up with, with and without the
 * harness's own cost.
 */
final class Report {

    /** A run "kept up" when it achieved at least this fraction of its target rate. */
    static final double KEPT_UP = 0.95;

    /** One parsed result line. */
    record Measured(String impl, String latencyCase, String mode, long targetRps, long achievedRps,
                    double cpuSeconds, CpuSplit split, long gcMillis, long requests, boolean sane, long triggered,
                    long expectedTriggered) {
        boolean keptUp() {
            return achievedRps >= KEPT_UP * targetRps;
        }
    }

    private final List<Measured> runs = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    /** A run's CPU by thread, in seconds ({@link CpuBreakdown}); NaN where the run printed no split. */
    record CpuSplit(double enqueue, double completion, double purgatoryThreads, double jvm) {
        static CpuSplit parse(Map<String, String> fields) {
            return new CpuSplit(seconds(fields, "enqueue_s"), seconds(fields, "completion_s"),
                    seconds(fields, "purgatory_threads_s"), seconds(fields, "jvm_s"));
        }

        private static double seconds(Map<String, String> fields, String name) {
            String value = fields.get(name);
            return value == null ? Double.NaN : Double.parseDouble(value);
        }
    }

    /**
     * Parses a result line ({@code impl=... achieved_rps=...}) and, where there are, its CPU split and its
     * accounting line, which tells how many requests the completion thread completed before their timeout.
     */
    static Measured parse(String line, String splitLine, String sanityLine, long requests, boolean sane) {
        Map<String, String> fields = fields(line);
        Map<String, String> accounting = sanityLine == null ? Map.of() : fields(sanityLine);
        CpuSplit split = CpuSplit.parse(splitLine == null ? Map.of() : fields(splitLine));
        return new Measured(fields.get("impl"), fields.get("case"), fields.get("mode"),
                Long.parseLong(fields.get("target_rps")), Long.parseLong(fields.get("achieved_rps")),
                Double.parseDouble(fields.get("cpu_s")), split, Long.parseLong(fields.get("gc_ms")), requests, sane,
                Long.parseLong(accounting.getOrDefault("triggered", "-1")),
                Long.parseLong(accounting.getOrDefault("expected_triggered", "-1")));
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> fields = new HashMap<>();
        for (String token : line.trim().split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                fields.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return fields;
    }

    void add(Measured run) {
        runs.add(run);
    }

    void problem(String description) {
        problems.add(description);
    }

    /**
     * The target at which CPU per request is compared: the highest that both implementations kept up with, or,
     * if there is none, the lowest target run.
     */
    long cpuTarget(LatencyCase latencyCase, CompletionMode mode) {
        List<Measured> mine = runsOf(latencyCase, mode);
        return cpuTarget(mine, commonTarget(mine));
    }

    private static long cpuTarget(List<Measured> mine, Optional<Long> common) {
        return common.orElseGet(() -> mine.stream().mapToLong(Measured::targetRps).min().orElse(0));
    }

    void printSummary(PrintStream out, LatencyCase latencyCase, CompletionMode mode) {
        List<Measured> mine = runsOf(latencyCase, mode);
        long ours = saturation(mine, MinibrokerAdapter.IMPL);
        long theirs = saturation(mine, KafkaAdapter.IMPL);
        Optional<Long> common = commonTarget(mine);
        long cpuTarget = cpuTarget(mine, common);
        String basis = common.isPresent()
                ? "highest target both kept up with" : "lowest target; NOT both kept up there";
        out.printf(Locale.ROOT,
                "case=%s mode=%s saturation_rps minibroker=%d kafka=%d ratio=%s cpu_per_req_us minibroker=%s kafka=%s%n",
                latencyCase.label(), mode.label(), ours, theirs,
                theirs > 0 ? String.format(Locale.ROOT, "%.2f", (double) ours / theirs) : "n/a",
                format(cpuPerRequest(mine, MinibrokerAdapter.IMPL, cpuTarget)),
                format(cpuPerRequest(mine, KafkaAdapter.IMPL, cpuTarget)));
        out.printf(Locale.ROOT, "#   ratio = minibroker/kafka saturation; cpu_per_req_us at target_rps=%d (%s)%s%n",
                cpuTarget, basis, censoredNote(mine));
        out.printf(Locale.ROOT, "#   completed in time (triggered/expected_triggered) at that target: minibroker=%s kafka=%s%n",
                onTime(mine, MinibrokerAdapter.IMPL, cpuTarget), onTime(mine, KafkaAdapter.IMPL, cpuTarget));
        printNetOfHarness(out, mine, cpuTarget);
        printSplit(out, mine, cpuTarget);
    }

    /**
     * The CPU per request by thread, at the CPU target (with the harness alone beside them) and in each
     * implementation's own saturation run, where the two cores are full and the split says what bounds the rate.
     */
    private static void printSplit(PrintStream out, List<Measured> mine, long cpuTarget) {
        StringBuilder atTarget = new StringBuilder(
                "#   cpu_per_req_us by thread (enqueue/completion/purgatory threads/jvm) at that target:");
        for (String impl : List.of(MinibrokerAdapter.IMPL, KafkaAdapter.IMPL, HarnessOnlyAdapter.IMPL)) {
            atTarget.append(' ').append(impl).append('=').append(split(runAt(mine, impl, cpuTarget)));
        }
        out.println(atTarget);
        StringBuilder atSaturation = new StringBuilder("#   the same in each one's saturation run:");
        for (String impl : List.of(MinibrokerAdapter.IMPL, KafkaAdapter.IMPL)) {
            Optional<Measured> fastest = saturationRun(mine, impl);
            atSaturation.append(' ').append(impl).append('=').append(split(fastest))
                    .append(fastest.map(r -> " (target " + r.targetRps() + ")").orElse(""));
        }
        out.println(atSaturation);
    }

    private static String split(Optional<Measured> run) {
        if (run.isEmpty()) {
            return "n/a";
        }
        CpuSplit split = run.get().split();
        double perRequest = 1e6 / run.get().requests();
        return String.format(Locale.ROOT, "%.2f/%.2f/%.2f/%.2f", split.enqueue() * perRequest,
                split.completion() * perRequest, split.purgatoryThreads() * perRequest, split.jvm() * perRequest);
    }

    /** The CPU per request of the purgatories alone: each figure less the harness's own, measured without one. */
    private static void printNetOfHarness(PrintStream out, List<Measured> mine, long cpuTarget) {
        OptionalDouble harness = cpuPerRequest(mine, HarnessOnlyAdapter.IMPL, cpuTarget);
        OptionalDouble ours = cpuPerRequest(mine, MinibrokerAdapter.IMPL, cpuTarget);
        OptionalDouble theirs = cpuPerRequest(mine, KafkaAdapter.IMPL, cpuTarget);
        if (harness.isEmpty() || ours.isEmpty() || theirs.isEmpty()) {
            out.println("#   harness alone (impl=none): not measured at that target");
            return;
        }
        double oursNet = ours.getAsDouble() - harness.getAsDouble();
        double theirsNet = theirs.getAsDouble() - harness.getAsDouble();
        out.printf(Locale.ROOT, "#   harness alone (impl=none) cpu_per_req_us=%.2f; net of it, minibroker=%.2f kafka=%.2f"
                        + " (ratio %s)%n", harness.getAsDouble(), oursNet, theirsNet,
                theirsNet > 0 ? String.format(Locale.ROOT, "%.2f", oursNet / theirsNet) : "n/a");
    }

    /**
     * The share of the requests due for completion that the completion thread did complete before their timeout.
     * Far below 100% means the completion thread fell behind (in event mode, scanning the watcher lists), so most
     * requests expired instead and the run measured the expiry path.
     */
    private static String onTime(List<Measured> runs, String impl, long target) {
        return runAt(runs, impl, target).filter(r -> r.expectedTriggered() > 0)
                .map(r -> String.format(Locale.ROOT, "%.1f%%", 100.0 * r.triggered() / r.expectedTriggered()))
                .orElse("n/a");
    }

    void printProblems(PrintStream out) {
        if (problems.isEmpty()) {
            out.println("# all runs passed the accounting check (each request completed or expired exactly once)");
        } else {
            out.println("# !!!!!!!! " + problems.size() + " RUN(S) FAILED !!!!!!!!");
            problems.forEach(p -> out.println("# !!! " + p));
        }
    }

    /** The implementation's run at this target rate (one per target in a case and mode). */
    private static Optional<Measured> runAt(List<Measured> runs, String impl, long target) {
        return runs.stream().filter(r -> r.impl().equals(impl) && r.targetRps() == target).findFirst();
    }

    /** The implementation's fastest run: the one that sets its saturation. */
    private static Optional<Measured> saturationRun(List<Measured> runs, String impl) {
        return runs.stream().filter(r -> r.impl().equals(impl)).max(Comparator.comparingLong(Measured::achievedRps));
    }

    private static long saturation(List<Measured> runs, String impl) {
        return saturationRun(runs, impl).map(Measured::achievedRps).orElse(0L);
    }

    private static boolean keptUp(List<Measured> runs, String impl, long target) {
        return runAt(runs, impl, target).map(Measured::keptUp).orElse(false);
    }

    private static OptionalDouble cpuPerRequest(List<Measured> runs, String impl, long target) {
        return runAt(runs, impl, target).map(r -> OptionalDouble.of(r.cpuSeconds() * 1e6 / r.requests()))
                .orElse(OptionalDouble.empty());
    }

    private static String format(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.2f", value.getAsDouble()) : "n/a";
    }

    private List<Measured> runsOf(LatencyCase latencyCase, CompletionMode mode) {
        return runs.stream()
                .filter(r -> r.latencyCase().equals(latencyCase.label()) && r.mode().equals(mode.label()))
                .toList();
    }

    private static Optional<Long> commonTarget(List<Measured> mine) {
        return mine.stream()
                .filter(Measured::keptUp)
                .map(Measured::targetRps)
                .distinct()
                .filter(t -> keptUp(mine, MinibrokerAdapter.IMPL, t) && keptUp(mine, KafkaAdapter.IMPL, t))
                .max(Long::compare);
    }

    /** A saturation figure is only a lower bound if that implementation still kept up at the last step. */
    private static String censoredNote(List<Measured> runs) {
        long maxTarget = runs.stream().mapToLong(Measured::targetRps).max().orElse(0);
        StringBuilder note = new StringBuilder();
        for (String impl : List.of(MinibrokerAdapter.IMPL, KafkaAdapter.IMPL)) {
            if (keptUp(runs, impl, maxTarget)) {
                note.append("; ").append(impl).append(" kept up at the highest step, so its saturation is a lower bound");
            }
        }
        return note.toString();
    }
}
