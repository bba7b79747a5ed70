package io.minibroker.benchmarks.purgatory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The force-mode path of the seed benchmark on one thread, through the same adapters as
 * {@link PurgatoryComparison}: submit a request watched on three of the 100 keys (it cannot complete yet, so it
 * is watched and added to the timer), then force-complete it (it leaves the timer and its lists).
 *
 * <p>Why beside the seed benchmark: that one spreads the two halves over two threads and adds the harness's
 * pacing, the collector and the JIT, so on a shared two-core machine a change of a few atomic operations per
 * request is lost in its noise; this measures the same calls' cost per request on one thread, with error bars.
 * What it leaves out: the cache-line transfers between the submitting and the completing core, and the
 * collector's cost of operations that live for their latency (here each dies at once).
 *
 * <p>Request numbers cycle through a ring, so the outcome counters stay small; nothing here checks them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PurgatoryPathBenchmark {

    static final int RING = 1 << 16;

    @Param({MinibrokerAdapter.IMPL, KafkaAdapter.IMPL})
    public String impl;

    private PurgatoryAdapter adapter;
    private final int[] keys = new int[RING * RunSpec.KEYS_PER_REQUEST];
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        adapter = PurgatoryAdapter.create(impl, new Outcomes(RING, RunSpec.TIMEOUT_MS), new Conditions(RING));
        SplittableRandom random = new SplittableRandom(42);
        for (int r = 0; r < RING; r++) {
            int base = r * RunSpec.KEYS_PER_REQUEST;
            keys[base] = random.nextInt(RunSpec.KEY_SPACE);
            do {
                keys[base + 1] = random.nextInt(RunSpec.KEY_SPACE);
            } while (keys[base + 1] == keys[base]);
            do {
                keys[base + 2] = random.nextInt(RunSpec.KEY_SPACE);
            } while (keys[base + 2] == keys[base] || keys[base + 2] == keys[base + 1]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        adapter.shutdown();
    }

    @Benchmark
    public boolean watchThenForceComplete() {
        return submit().forceCompleteNow();
    }

    /** Submits the next request of the ring; it waits until completed or until the seed's timeout. */
    BenchOperation submit() {
        int request = next;
        next = (request + 1) & (RING - 1);
        int base = request * RunSpec.KEYS_PER_REQUEST;
        return adapter.submit(request, keys[base], keys[base + 1], keys[base + 2]);
    }
}
