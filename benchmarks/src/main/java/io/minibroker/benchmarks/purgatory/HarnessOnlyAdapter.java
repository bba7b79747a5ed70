package io.minibroker.benchmarks.purgatory;

/**
 * No purgatory at all: each request is answered the moment it is submitted, and the completion thread's force
 * completions and key checks find nothing to do. A run on it costs only what the harness itself spends (pacing
 * both threads to the schedule, the arrays, the outcome counters, the JVM's own threads), so its CPU per request
 * is the floor under both implementations' figures; the report subtracts it to compare the purgatories alone.
 */
final class HarnessOnlyAdapter implements PurgatoryAdapter {

    static final String IMPL = "none";

    private final Outcomes outcomes;

    HarnessOnlyAdapter(Outcomes outcomes) {
        this.outcomes = outcomes;
    }

    @Override
    public String impl() {
        return IMPL;
    }

    @Override
    public BenchOperation submit(int request, int key0, int key1, int key2) {
        outcomes.completed(request);
        return new Answered();
    }

    @Override
    public int checkAndComplete(int key) {
        return 0;
    }

    @Override
    public long numDelayed() {
        return 0;
    }

    @Override
    public long watched() {
        return 0;
    }

    @Override
    public void shutdown() {
    }

    /** A request answered on submission; allocated per request, as the purgatories' operations are. */
    private static final class Answered implements BenchOperation {
        @Override
        public boolean forceCompleteNow() {
            return false;
        }
    }
}
