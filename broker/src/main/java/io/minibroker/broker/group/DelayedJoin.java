package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

/**
 * The join phase of a rebalance, parked in the "Rebalance" purgatory on its group. It completes when every
 * known member has rejoined, or when the rebalance timeout runs out (members that did not rejoin are then
 * dropped). The first rebalance of an empty group waits in an {@link InitialDelayedJoin} instead.
 */
final class DelayedJoin extends DelayedOperation {

    private final GroupRebalancer rebalancer;
    private final ClassicGroup group;

    DelayedJoin(GroupRebalancer rebalancer, ClassicGroup group, long rebalanceTimeoutMs) {
        super(rebalanceTimeoutMs);
        this.rebalancer = rebalancer;
        this.group = group;
    }

    @Override
    public boolean tryComplete() {
        synchronized (group) {
            return group.allMembersRejoined() && forceComplete();
        }
    }

    @Override
    protected void onComplete() {
        rebalancer.completeJoin(group);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; completeJoin already dropped the members that did not rejoin.
    }
}
