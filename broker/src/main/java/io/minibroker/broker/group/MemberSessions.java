package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;

/**
 * The members' session timeouts: the "Heartbeat" purgatory, holding one {@link DelayedHeartbeat} per member (and
 * per pending member, told MEMBER_ID_REQUIRED). A sign of life ({@link #markAlive}: a heartbeat, a join, a sync, a
 * commit) replaces the timeout under way; {@link #end} ends it quietly; one that runs out goes to the
 * {@link Expiry}, which takes the group's lock itself. Called under the member's group lock: the purgatory never
 * calls back under its own lock and the member's operations take only that group's (reentrant) lock, so that is
 * safe.
 */
final class MemberSessions {

    /** What a member's session running out does: the membership removes it, or starts a fresh timeout. */
    interface Expiry {
        void expired(ClassicGroup group, GroupMember member, long livenessEpoch);
    }

    private final Purgatory<DelayedHeartbeat> purgatory;
    private final Expiry expiry;

    MemberSessions(BrokerClock clock, Expiry expiry) {
        this.purgatory = Purgatory.builder("Heartbeat").clock(clock.purgatoryClock()).build();
        this.expiry = expiry;
    }

    /** Refreshes the member's session: a new timeout replaces the one pending. */
    void markAlive(ClassicGroup group, GroupMember member) {
        end(member);
        purgatory.tryCompleteElseWatch(new DelayedHeartbeat(expiry, group, member, member.livenessEpoch),
                List.of(member));
    }

    /** Ends the member's session timeout: the one scheduled completes quietly. */
    void end(GroupMember member) {
        member.livenessEpoch++;
        purgatory.checkAndComplete(member);
    }

    void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(purgatory).bindTo(registry);
    }

    /** Stops the purgatory; the sessions it expires on closing belong to Dead groups, which remove nobody. */
    void close() throws InterruptedException {
        purgatory.close();
    }
}
