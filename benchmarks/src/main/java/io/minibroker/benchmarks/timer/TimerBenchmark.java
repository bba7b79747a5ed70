package io.minibroker.benchmarks.timer;

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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Timer microbenchmarks: our {@code HierarchicalTimer} against Kafka's {@code SystemTimer}, Netty's
 * {@code HashedWheelTimer} and the JDK's {@code ScheduledThreadPoolExecutor}, from one and from two threads.
 *
 * <ul>
 *   <li>add+cancel: schedule a timeout far in the future and cancel it at once, the common purgatory case of a
 *       request answered before its timeout.</li>
 *   <li>add+expire: schedule timeouts of 1-20 ms and let them run. The adders are held back while more than
 *       {@link #MAX_OUTSTANDING} tasks are waiting, so the score is the rate at which the timer both takes and
 *       runs tasks, not just how fast it can swallow them.</li>
 * </ul>
 * Each timer also runs its own expiry thread (the driver or the worker), which competes for the same cores.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TimerBenchmark {

    /** Far enough that no cancelled timeout can fire during a run. */
    private static final long CANCEL_DELAY_MS = 30_000;
    private static final long MAX_OUTSTANDING = 200_000;
    private static final int BATCH = 1024;

    @Param({"minibroker", "minibroker-caller-time", "kafka", "netty", "stpe"})
    public String timer;

    private TimerUnderTest underTest;
    private final AtomicLong scheduledForExpiry = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        underTest = TimerUnderTest.create(timer);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        underTest.shutdown();
    }

    /** Per-thread delays for add+expire, drawn once so the measured loop only indexes an array. */
    @State(Scope.Thread)
    public static class Delays {
        final long[] delaysMs = new long[4096];
        int next;
        int sinceReport;

        @Setup(Level.Trial)
        public void draw() {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
            for (int i = 0; i < delaysMs.length; i++) {
                delaysMs[i] = 1 + random.nextInt(20);
            }
        }

        long nextDelay() {
            long delay = delaysMs[next];
            next = (next + 1) & (delaysMs.length - 1);
            return delay;
        }
    }

    @Benchmark
    @Threads(1)
    public void addCancel() {
        underTest.cancel(underTest.schedule(CANCEL_DELAY_MS));
    }

    @Benchmark
    @Threads(2)
    public void addCancel2Threads() {
        underTest.cancel(underTest.schedule(CANCEL_DELAY_MS));
    }

    @Benchmark
    @Threads(1)
    public Object addExpire(Delays delays) {
        return addForExpiry(delays);
    }

    @Benchmark
    @Threads(2)
    public Object addExpire2Threads(Delays delays) {
        return addForExpiry(delays);
    }

    private Object addForExpiry(Delays delays) {
        Object handle = underTest.schedule(delays.nextDelay());
        if (++delays.sinceReport == BATCH) {
            delays.sinceReport = 0;
            long scheduled = scheduledForExpiry.addAndGet(BATCH);
            // Back-pressure: wait for the expiry side instead of growing an unbounded backlog.
            while (scheduled - underTest.expired() > MAX_OUTSTANDING) {
                Thread.yield();
            }
        }
        return handle;
    }
}
