package io.minibroker.broker.fetch;

import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;

import java.util.concurrent.CompletableFuture;

/**
 * A fetch waiting for {@code MinBytes} of new data or {@code MaxWaitMs}, watched on each of its partitions: an
 * append to any of them checks it at once, so a long-polling consumer gets new records within the append's own
 * request, not at the end of its wait.
 */
public final class DelayedFetch extends DelayedOperation {

    private final FetchPlan plan;
    private final CompletableFuture<Struct> answer;
    private final BrokerTopicMetrics metrics;

    DelayedFetch(long maxWaitMs, FetchPlan plan, CompletableFuture<Struct> answer, BrokerTopicMetrics metrics) {
        super(maxWaitMs);
        this.plan = plan;
        this.answer = answer;
        this.metrics = metrics;
    }

    @Override
    public boolean tryComplete() {
        return FetchReader.canAnswer(plan) && forceComplete();
    }

    @Override
    protected void onComplete() {
        try {
            answer.complete(FetchReader.readParked(plan, metrics));
        } catch (RuntimeException e) { // never leave the answer pending: its connection would hold every later response
            answer.completeExceptionally(e);
        }
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory's expiration meter; the answer is whatever arrived, possibly nothing.
    }
}
