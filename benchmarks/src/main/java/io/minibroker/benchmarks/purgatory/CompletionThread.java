package io.minibroker.benchmarks.purgatory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Completes requests at arrival + latency, as the seed benchmark did: this one thread either force-completes
 * each request whose latency is below the timeout or marks it satisfiable and checks its keys.
 *
 * <p>Which request completes when is known before the run starts ({@link Workload#completionOrder}), so the two
 * threads share no queue: the enqueue thread only records each request's arrival time (and, in {@code force}
 * mode, its operation) in arrays and publishes how many it has submitted, and this thread walks the precomputed
 * order, waiting for each request to have arrived and for its arrival + latency to come. A shared queue (the
 * seed's DelayQueue) would cost a lock, a heap insert, an allocation and often a wake-up per request on both
 * threads; that cost is the harness's, yet it bounded both implementations' saturation alike.
 *
 * <p>The arrival is the time the request was actually submitted, so a purgatory that makes the enqueue thread
 * fall behind still gets each completion a full latency after its request entered it. Only past saturation, when
 * arrivals slip unevenly, may this thread take two completions slightly out of due order; its lateness figures
 * show that.
 */
final class CompletionThread extends Thread {

    private static final VarHandle SUBMITTED;

    static {
        try {
            SUBMITTED = MethodHandles.lookup().findVarHandle(CompletionThread.class, "submitted", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PurgatoryAdapter adapter;
    private final CompletionMode mode;
    private final Conditions conditions;
    private final Workload workload;
    /** Each request's submission time, written by the enqueue thread before it publishes {@link #submitted}. */
    private final long[] arrivedNanos;
    /** In force mode, the operations still to complete; a slot is cleared once done so the operation can go. */
    private final BenchOperation[] operations;
    /** Requests submitted so far, in order; published with release semantics after their slots are written. */
    @SuppressWarnings("unused") // accessed through SUBMITTED
    private volatile int submitted;
    private volatile Throwable failure;
    /** How late the thread got to its requests: a request it reaches too late may have expired meanwhile. */
    private long lateNanosTotal;
    private long lateNanosMax;
    private long processed;
    /** The CPU this thread spent in {@link #run()}; read after the thread has ended. */
    private long cpuNanos;

    CompletionThread(PurgatoryAdapter adapter, CompletionMode mode, Conditions conditions, Workload workload) {
        super("completion");
        setDaemon(true);
        this.adapter = adapter;
        this.mode = mode;
        this.conditions = conditions;
        this.workload = workload;
        this.arrivedNanos = new long[workload.size()];
        this.operations = mode == CompletionMode.FORCE ? new BenchOperation[workload.size()] : null;
    }

    /**
     * For the enqueue thread, right after it submitted request {@code request} (requests are submitted in index
     * order) at {@code nowNanos}; {@code operation} is kept in force mode only, and only if it is to complete.
     */
    void submitted(int request, BenchOperation operation, long nowNanos) {
        arrivedNanos[request] = nowNanos;
        if (operations != null && workload.completes(request)) {
            operations[request] = operation;
        }
        SUBMITTED.setRelease(this, request + 1);
    }

    Throwable failure() {
        return failure;
    }

    /** Mean lateness in milliseconds; read after the thread has ended. */
    double meanLateMs() {
        return processed == 0 ? 0 : lateNanosTotal / 1e6 / processed;
    }

    /** Worst lateness in milliseconds; read after the thread has ended. */
    double maxLateMs() {
        return lateNanosMax / 1e6;
    }

    /** The CPU this thread spent, in nanoseconds; read after the thread has ended. */
    long cpuNanos() {
        return cpuNanos;
    }

    @Override
    public void run() {
        long cpuAtStart = CpuBreakdown.currentThreadNanos();
        try {
            for (int request : workload.completionOrder) {
                while ((int) SUBMITTED.getAcquire(this) <= request) {
                    Pacing.pause(); // the enqueue thread is behind its schedule
                }
                long due = arrivedNanos[request] + workload.latencyNanos[request];
                long late = Pacing.awaitNanos(due) - due;
                lateNanosTotal += late;
                lateNanosMax = Math.max(lateNanosMax, late);
                processed++;
                complete(request);
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            cpuNanos = CpuBreakdown.currentThreadNanos() - cpuAtStart;
        }
    }

    private void complete(int request) {
        if (mode == CompletionMode.FORCE) {
            operations[request].forceCompleteNow();
            operations[request] = null;
        } else {
            conditions.satisfy(request);
            int base = request * RunSpec.KEYS_PER_REQUEST;
            for (int k = 0; k < RunSpec.KEYS_PER_REQUEST; k++) {
                adapter.checkAndComplete(workload.keys[base + k]);
            }
        }
    }
}
