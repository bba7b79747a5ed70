package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

/**
 * A member's session timeout, parked in the "Heartbeat" purgatory on the member. Any sign of life bumps the
 * member's liveness epoch and completes this operation quietly (a fresh one is scheduled); if it expires
 * instead, the member missed its session timeout and is removed. A pending member (told MEMBER_ID_REQUIRED)
 * has one too: it is forgotten unless it joins with its id in time.
 */
final class DelayedHeartbeat extends DelayedOperation {

    private final MemberSessions.Expiry expiry;
    private final ClassicGroup group;
    private final GroupMember member;
    private final long epoch;

    DelayedHeartbeat(MemberSessions.Expiry expiry, ClassicGroup group, GroupMember member, long epoch) {
        super(member.sessionTimeoutMs);
        this.expiry = expiry;
        this.group = group;
        this.member = member;
        this.epoch = epoch;
    }

    @Override
    public boolean tryComplete() {
        // No lock: the epoch is volatile, and a stale read only delays the check to the next event or expiry.
        return member.livenessEpoch != epoch && forceComplete();
    }

    @Override
    protected void onComplete() {
        // A completion before expiry means the member showed signs of life: nothing to do.
    }

    @Override
    protected void onExpiration() {
        expiry.expired(group, member, epoch);
    }
}
