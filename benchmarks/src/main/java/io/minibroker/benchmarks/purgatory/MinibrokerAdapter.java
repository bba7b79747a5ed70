package io.minibroker.benchmarks.purgatory;

import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;

import java.util.List;

/** Our {@link Purgatory}, configured like Kafka's defaults (tick 1 ms, 20 buckets, purge interval 1000). */
final class MinibrokerAdapter implements PurgatoryAdapter {

    static final String IMPL = "minibroker";

    private final Outcomes outcomes;
    private final Conditions conditions;
    private final Purgatory<Op> purgatory;
    private final Key[] keys = new Key[RunSpec.KEY_SPACE];

    MinibrokerAdapter(Outcomes outcomes, Conditions conditions) {
        this.outcomes = outcomes;
        this.conditions = conditions;
        this.purgatory = Purgatory.builder("bench")
                .tickMs(RunSpec.TICK_MS)
                .wheelSize(RunSpec.WHEEL_SIZE)
                .purgeInterval(RunSpec.PURGE_INTERVAL)
                .build();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new Key(i);
        }
    }

    @Override
    public String impl() {
        return IMPL;
    }

    @Override
    public BenchOperation submit(int request, int key0, int key1, int key2) {
        Op op = new Op(request, outcomes, conditions);
        // A fresh list per request, as a broker builds one per request; the Kafka adapter does the same.
        purgatory.tryCompleteElseWatch(op, List.of(keys[key0], keys[key1], keys[key2]));
        return op;
    }

    @Override
    public int checkAndComplete(int key) {
        return purgatory.checkAndComplete(keys[key]);
    }

    @Override
    public long numDelayed() {
        return purgatory.numDelayed();
    }

    @Override
    public long watched() {
        return purgatory.watched();
    }

    @Override
    public void shutdown() throws InterruptedException {
        purgatory.close();
    }

    /** A key with value semantics, like a topic-partition key, so both maps hash the same way. */
    record Key(int id) {
    }

    static final class Op extends DelayedOperation implements BenchOperation {
        private final int request;
        private final Outcomes outcomes;
        private final Conditions conditions;
        /** Taken just before the operation enters the purgatory, to catch an expiry that comes too early. */
        private final long createdNanos = System.nanoTime();

        Op(int request, Outcomes outcomes, Conditions conditions) {
            super(RunSpec.TIMEOUT_MS);
            this.request = request;
            this.outcomes = outcomes;
            this.conditions = conditions;
        }

        @Override
        public boolean tryComplete() {
            return conditions.holds(request) && forceComplete();
        }

        @Override
        protected void onComplete() {
            outcomes.completed(request);
        }

        @Override
        protected void onExpiration() {
            outcomes.expired(createdNanos);
        }

        @Override
        public boolean forceCompleteNow() {
            return forceComplete();
        }
    }
}
