package io.minibroker.benchmarks.purgatory;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.purgatory.DelayedOperation;
import org.apache.kafka.server.purgatory.DelayedOperationKey;
import org.apache.kafka.server.purgatory.DelayedOperationPurgatory;
import org.apache.kafka.server.util.timer.SystemTimer;

import java.util.List;

/**
 * Apache Kafka 4.4.0's {@link DelayedOperationPurgatory} on its {@link SystemTimer}, with the same settings as ours:
 * tick 1 ms, 20 buckets, purge interval 1000, its own expiration reaper enabled (as in a broker).
 */
final class KafkaAdapter implements PurgatoryAdapter {

    static final String IMPL = "kafka-4.4.0";

    private static final int BROKER_ID = 0;

    private final Outcomes outcomes;
    private final Conditions conditions;
    private final DelayedOperationPurgatory<Op> purgatory;
    private final Key[] keys = new Key[RunSpec.KEY_SPACE];

    KafkaAdapter(Outcomes outcomes, Conditions conditions) {
        this.outcomes = outcomes;
        this.conditions = conditions;
        SystemTimer timer = new SystemTimer("bench", RunSpec.TICK_MS, RunSpec.WHEEL_SIZE, Time.SYSTEM.hiResClockMs());
        this.purgatory = new DelayedOperationPurgatory<>("bench", timer, BROKER_ID, RunSpec.PURGE_INTERVAL,
                true, true);
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
    public void shutdown() throws Exception {
        purgatory.shutdown();
    }

    /** Same value semantics as the minibroker adapter's key; Kafka only adds a label for its metrics. */
    record Key(int id) implements DelayedOperationKey {
        @Override
        public String keyLabel() {
            return "bench-" + id;
        }
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
        public void onComplete() {
            outcomes.completed(request);
        }

        @Override
        public void onExpiration() {
            outcomes.expired(createdNanos);
        }

        @Override
        public boolean forceCompleteNow() {
            return forceComplete();
        }
    }
}
