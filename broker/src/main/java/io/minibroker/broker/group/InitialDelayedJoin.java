package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

/**
 * The join phase of an empty group's first rebalance, waiting {@code group.initial.rebalance.delay.ms} so that
 * consumers started together land in one generation rather than several. It only ends by running out: then
 * the coordinator either waits one more delay, if a new member joined meanwhile and budget is left, or ends
 * the join phase. {@code remainingMs} is that budget: what the group's rebalance timeout leaves after the
 * delays waited so far, as Kafka counts it.
 */
final class InitialDelayedJoin extends DelayedOperation {

    private final GroupRebalancer rebalancer;
    private final ClassicGroup group;
    private final long remainingMs;

    InitialDelayedJoin(GroupRebalancer rebalancer, ClassicGroup group, long delayMs, long remainingMs) {
        super(delayMs);
        this.rebalancer = rebalancer;
        this.group = group;
        this.remainingMs = remainingMs;
    }

    @Override
    public boolean tryComplete() {
        return false; // members rejoining do not cut the delay short, as in Kafka
    }

    @Override
    protected void onComplete() {
        rebalancer.initialDelayElapsed(group, remainingMs);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; the delay running out is how this join phase always ends.
    }
}
