package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The timers of streams-group members, in a purgatory of their own ("StreamsGroupHeartbeat") on the broker clock: a
 * session timeout restarted by every heartbeat ({@code group.streams.session.timeout.ms}), and a rebalance timeout
 * while the member has tasks to revoke (its {@code RebalanceTimeoutMs}). Each watches a token of the member; when the
 * token moves on the timeout completes quietly, else it expires and the {@link Expiry} fences the member, taking the
 * group's lock itself.
 */
final class StreamsGroupTimeouts {

    /** What a timeout that ran out does. */
    interface Expiry {
        /** Fences the member unless {@code current} has moved past {@code token} meanwhile. */
        void expired(StreamsGroup group, StreamsGroupMember member, LongSupplier current, long token, String why);
    }

    private final Purgatory<TokenTimeout> purgatory;
    private final Expiry expiry;

    StreamsGroupTimeouts(BrokerClock clock, Expiry expiry) {
        this.purgatory = Purgatory.builder("StreamsGroupHeartbeat").clock(clock.purgatoryClock()).build();
        this.expiry = expiry;
    }

    /** Restarts the member's session timeout; the caller holds the group's lock. */
    void heartbeat(StreamsGroup group, StreamsGroupMember member, int sessionTimeoutMs) {
        long token = ++member.sessionToken;
        purgatory.checkAndComplete(member);
        purgatory.tryCompleteElseWatch(new TokenTimeout(sessionTimeoutMs, () -> member.sessionToken, token,
                () -> expiry.expired(group, member, () -> member.sessionToken, token, "session timeout")),
                List.of(member));
    }

    /** Starts the rebalance timeout of a member that must revoke tasks, for the revocation under way. */
    void revoking(StreamsGroup group, StreamsGroupMember member) {
        long token = member.revocationToken;
        purgatory.tryCompleteElseWatch(new TokenTimeout(Math.max(member.rebalanceTimeoutMs, 0),
                () -> member.revocationToken, token,
                () -> expiry.expired(group, member, () -> member.revocationToken, token, "rebalance timeout")),
                List.of(member));
    }

    /** Ends the member's timeouts: it left or was removed. */
    void end(StreamsGroupMember member) {
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
