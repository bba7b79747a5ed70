package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The timers of consumer-, streams- and share-group members, each kind in a purgatory of its own on the broker clock
 * ("ConsumerGroupHeartbeat", "StreamsGroupHeartbeat", "ShareGroupHeartbeat"): a session timeout restarted by every
 * heartbeat, and a rebalance timeout (the member's {@code RebalanceTimeoutMs}) while it has partitions or tasks to
 * revoke (never for a share-group member, which revokes nothing, as Kafka's has no rebalance timeout); and any other
 * timeout a coordinator watches on a member of its own ({@link #watch}: a classic-protocol member's join and sync
 * timeouts in a mixed consumer group). Each watches a token of the member; when the token moves on the timeout
 * completes quietly, else it expires and the {@link Expiry} fences the member, taking the group's lock itself.
 *
 * @param <G> the kind of group
 * @param <M> the kind of member
 */
final class MemberTimeouts<G, M extends TimedMember> {

    /** What a timeout that ran out does. */
    interface Expiry<G, M> {
        /** Fences the member unless {@code current} has moved past {@code token} meanwhile; {@code why} says which. */
        void expired(G group, M member, LongSupplier current, long token, String why);
    }

    /** Kafka's coordinator timer's retry backoff for a timeout's write that failed. */
    static final int RETRY_BACKOFF_MS = 500;

    private final Purgatory<TokenTimeout> purgatory;
    private final Expiry<G, M> expiry;

    MemberTimeouts(String purgatoryName, BrokerClock clock, Expiry<G, M> expiry) {
        this.purgatory = Purgatory.builder(purgatoryName).clock(clock.purgatoryClock()).build();
        this.expiry = expiry;
    }

    /** Restarts the member's session timeout; the caller holds the group's lock. */
    void heartbeat(G group, M member, int sessionTimeoutMs) {
        long token = ++member.sessionToken;
        purgatory.checkAndComplete(member);
        watch(group, member, sessionTimeoutMs, () -> member.sessionToken, token, "session timeout");
    }

    /**
     * The member's removal by a timeout was refused at its append and rolled back, the member with it: as Kafka's
     * coordinator timer tries a failed write again after its retry backoff (CoordinatorTimerImpl, 500 ms), its
     * session now runs out that much later, unless it heartbeats meanwhile. {@code member} is the one the group now
     * holds under its id (null: none). The caller holds the group's lock.
     */
    void retryRemoval(G group, M member) {
        if (member != null) {
            heartbeat(group, member, RETRY_BACKOFF_MS);
        }
    }

    /**
     * Starts the rebalance timeout of a member that must revoke, for the revocation under way: the
     * {@code RebalanceTimeoutMs} it asked for.
     */
    void revoking(G group, M member, int rebalanceTimeoutMs) {
        watch(group, member, rebalanceTimeoutMs, () -> member.revocationToken, member.revocationToken,
                "rebalance timeout");
    }

    /**
     * Starts a timeout of {@code timeoutMs} (a negative one runs out at once) on the member, superseded once
     * {@code current} moves past {@code token} and the member is {@linkplain #recheck rechecked}.
     */
    void watch(G group, M member, int timeoutMs, LongSupplier current, long token, String why) {
        purgatory.tryCompleteElseWatch(new TokenTimeout(Math.max(timeoutMs, 0), current, token,
                () -> expiry.expired(group, member, current, token, why)), List.of(member));
    }

    /** Completes the member's timeouts whose token moved on. */
    void recheck(M member) {
        purgatory.checkAndComplete(member);
    }

    /** Ends the member's session and rebalance timeouts: it left or was removed. */
    void end(M member) {
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
