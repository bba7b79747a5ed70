package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;

/**
 * The timers of consumer-protocol members, in a purgatory of their own ("ConsumerGroupHeartbeat"): a session
 * timeout, restarted by every heartbeat ({@code group.consumer.session.timeout.ms}), and a rebalance timeout while
 * the member has partitions to revoke (its {@code RebalanceTimeoutMs}). Each watches a token of the member; when the
 * token moves on (a heartbeat, a finished revocation) the timeout completes quietly, else it expires and the
 * {@link Expiry} fences the member, taking the group's lock itself.
 */
final class ConsumerGroupTimeouts {

    /** What a timeout that ran out does. */
    interface Expiry {
        void sessionExpired(ConsumerGroup group, ConsumerGroupMember member, long token);

        void rebalanceExpired(ConsumerGroup group, ConsumerGroupMember member, long token);
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

    /** Ends the member's timeouts: it left or was removed. */
    void end(ConsumerGroupMember member) {
        member.sessionToken++;
        member.revocationToken++;
        purgatory.checkAndComplete(member);
    }

    void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(purgatory).bindTo(registry);
    }

    void close() throws InterruptedException {
        purgatory.close();
    }
}
