package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

/**
 * The join phase of a rebalance, parked in the "Rebalance" purgatory on its group. It completes when every
 * known member has rejoined, or when the rebalance timeout runs out (members that did not rejoin are then
 * dropped). The first rebalance of an empty group instead waits the whole {@code group.initial.rebalance.delay.ms}
 * so that consumers started together land in one generation rather than several.
 */
final class DelayedJoin extends DelayedOperation {

    private final GroupCoordinator coordinator;
    private final ConsumerGroup group;
    private final boolean initialDelay;

    DelayedJoin(GroupCoordinator coordinator, ConsumerGroup group, long delayMs, boolean initialDelay) {
        super(delayMs);
        this.coordinator = coordinator;
        this.group = group;
        this.initialDelay = initialDelay;
    }

    @Override
    public boolean tryComplete() {
        if (initialDelay) {
            return false;
        }
        synchronized (group) {
            return group.allMembersRejoined() && forceComplete();
        }
    }

    @Override
    protected void onComplete() {
        coordinator.completeJoin(group);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; completeJoin already dropped the members that did not rejoin.
    }
}
