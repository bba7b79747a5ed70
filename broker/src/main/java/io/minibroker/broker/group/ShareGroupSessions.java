package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;

/**
 * Share-group members' session timeouts ({@code group.share.session.timeout.ms}), in a purgatory of their own
 * ("ShareGroupHeartbeat") on the broker clock: every heartbeat restarts the member's; one that runs out goes to the
 * {@link Expiry}, which removes the member, taking the group's lock itself.
 */
final class ShareGroupSessions {

    interface Expiry {
        void sessionExpired(ShareGroup group, ShareGroupMember member, long token);
    }

    private final Purgatory<TokenTimeout> purgatory;
    private final Expiry expiry;

    ShareGroupSessions(BrokerClock clock, Expiry expiry) {
        this.purgatory = Purgatory.builder("ShareGroupHeartbeat").clock(clock.purgatoryClock()).build();
        this.expiry = expiry;
    }

    /** Restarts the member's session timeout; the caller holds the group's lock. */
    void heartbeat(ShareGroup group, ShareGroupMember member, int sessionTimeoutMs) {
        long token = ++member.sessionToken;
        purgatory.checkAndComplete(member);
        purgatory.tryCompleteElseWatch(new TokenTimeout(sessionTimeoutMs, () -> member.sessionToken, token,
                () -> expiry.sessionExpired(group, member, token)), List.of(member));
    }

    /** Ends the member's session: it left or was removed. */
    void end(ShareGroupMember member) {
        member.sessionToken++;
        purgatory.checkAndComplete(member);
    }

    void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(purgatory).bindTo(registry);
    }

    void close() throws InterruptedException {
        purgatory.close();
    }
}
