package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

/**
 * The sync phase of one generation, parked in the "Rebalance" purgatory on its group (Kafka's pending-sync timer):
 * every member answered at the join phase's end must send its SyncGroup within the rebalance timeout. It completes
 * early, doing nothing, once all have or the generation is over; running out, the coordinator removes those that
 * have not and rebalances.
 */
final class DelayedSync extends DelayedOperation {

    private final GroupRebalancer rebalancer;
    private final ClassicGroup group;
    private final int generationId;

    DelayedSync(GroupRebalancer rebalancer, ClassicGroup group, int generationId, long rebalanceTimeoutMs) {
        super(rebalanceTimeoutMs);
        this.rebalancer = rebalancer;
        this.group = group;
        this.generationId = generationId;
    }

    @Override
    public boolean tryComplete() {
        synchronized (group) {
            return !group.awaitsSyncs(generationId) && forceComplete();
        }
    }

    @Override
    protected void onComplete() {
        rebalancer.expirePendingSync(group, generationId);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; onComplete removes the members that did not sync, if any.
    }
}
