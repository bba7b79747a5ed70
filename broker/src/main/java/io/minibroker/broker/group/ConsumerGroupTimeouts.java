package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The timers of consumer-protocol members, in a purgatory of their own ("ConsumerGroupHeartbeat"): a session
 * timeout, restarted by every heartbeat ({@code group.consumer.session.timeout.ms}), and a rebalance timeout while
 * the member has partitions to revoke (its {@code RebalanceTimeoutMs}); and for a classic-protocol member (a mixed
 * group) Kafka's two others, both of its JoinGroup's rebalance timeout: the sync timeout, from its join until its
 * SyncGroup, and the join timeout, from the first time it is told to rejoin (REBALANCE_IN_PROGRESS) until it does.
 * Each watches a token of the member; when the token moves on (a heartbeat, a finished revocation, a sync, a
 * rejoin) the timeout completes quietly, else it expires and the {@link Expiry} fences the member, taking the
 * group's lock itself.
 */
final class ConsumerGroupTimeouts {

    /** What a timeout that ran out does. */
    interface Expiry {
        void sessionExpired(ConsumerGroup group, ConsumerGroupMember member, long token);

        void rebalanceExpired(ConsumerGroup group, ConsumerGroupMember member, long token);

        /** A classic-protocol member that did not rejoin, or did not sync, within its rebalance timeout. */
        void classicRebalanceExpired(ConsumerGroup group, ConsumerGroupMember member, LongSupplier current,
                                     long token);
    }

    private final Purgatory<TokenTimeout> purgatory;
    private final Expiry expiry;

    ConsumerGroupTimeouts(BrokerClock clock, Expiry expiry) {
        this.purgatory = Purgatory.builder("ConsumerGroupHeartbeat").clock(clock.purgatoryClock()).build();
        this.expiry = expiry;
    }

    /** Restarts the member's session timeout; the caller holds the group's lock. */
    void heartbeat(ConsumerGroup group, ConsumerGroupMember member, int sessionTimeoutMs) {
        long token = ++member.sessionToken;
        purgatory.checkAndComplete(member);
        purgatory.tryCompleteElseWatch(new TokenTimeout(sessionTimeoutMs, () -> member.sessionToken, token,
                () -> expiry.sessionExpired(group, member, token)), List.of(member));
    }

    /** Starts the rebalance timeout of a member that must revoke partitions, for the revocation under way. */
    void revoking(ConsumerGroup group, ConsumerGroupMember member) {
        long token = member.revocationToken;
        int timeoutMs = Math.max(member.rebalanceTimeoutMs, 0);
        purgatory.tryCompleteElseWatch(new TokenTimeout(timeoutMs, () -> member.revocationToken, token,
                () -> expiry.rebalanceExpired(group, member, token)), List.of(member));
    }

    /**
     * A classic-protocol member's join was written: the join timeout ends, and the sync timeout starts (again) with
     * the join's rebalance timeout. The caller holds the group's lock.
     */
    void joined(ConsumerGroup group, ConsumerGroupMember member, int rebalanceTimeoutMs) {
        member.joinToken++;
        member.awaitingRejoin = false;
        long token = ++member.syncToken;
        purgatory.checkAndComplete(member);
        LongSupplier current = () -> member.syncToken;
        purgatory.tryCompleteElseWatch(new TokenTimeout(Math.max(rebalanceTimeoutMs, 0), current, token,
                () -> expiry.classicRebalanceExpired(group, member, current, token)), List.of(member));
    }

    /** A classic-protocol member's SyncGroup succeeded: its sync timeout ends. The caller holds the group's lock. */
    void synced(ConsumerGroupMember member) {
        member.syncToken++;
        purgatory.checkAndComplete(member);
    }

    /**
     * A classic-protocol member told to rejoin: its join timeout starts with its rebalance timeout, unless one runs
     * already. The caller holds the group's lock.
     */
    void mustRejoin(ConsumerGroup group, ConsumerGroupMember member) {
        if (member.awaitingRejoin) {
            return;
        }
        member.awaitingRejoin = true;
        long token = member.joinToken;
        LongSupplier current = () -> member.joinToken;
        purgatory.tryCompleteElseWatch(new TokenTimeout(Math.max(member.rebalanceTimeoutMs, 0), current, token,
                () -> expiry.classicRebalanceExpired(group, member, current, token)), List.of(member));
    }

    /** Ends the member's timeouts: it left or was removed. */
    void end(ConsumerGroupMember member) {
        member.sessionToken++;
        member.revocationToken++;
        member.joinToken++;
        member.syncToken++;
        member.awaitingRejoin = false;
        purgatory.checkAndComplete(member);
    }

    void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(purgatory).bindTo(registry);
    }

    void close() throws InterruptedException {
        purgatory.close();
    }
}
