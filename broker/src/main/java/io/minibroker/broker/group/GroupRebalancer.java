package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.group.GroupResponses.joinResponse;

/**
 * Takes a classic group through a rebalance: PreparingRebalance while the join phase waits in the "Rebalance"
 * purgatory ({@link DelayedJoin}, or {@link InitialDelayedJoin} for an Empty group's first), then the next
 * generation, CompletingRebalance until the leader's assignment is stored, then Stable (or Empty if no member
 * rejoined). A member leaving, or missing its session timeout, starts one ({@link #removeMemberAndRebalance}).
 *
 * <p>Every method runs under the group's lock, or takes it: the purgatory's callbacks ({@link #completeJoin},
 * {@link #initialDelayElapsed}) never run under a purgatory lock, and the group's operations take only that group's
 * (reentrant) lock, so calling the purgatory while holding the group's lock is safe.
 */
final class GroupRebalancer {

    private final ClassicGroups groups;
    private final MemberSessions sessions;
    private final GroupMetadataWriter metadata;
    private final Purgatory<DelayedOperation> purgatory;
    /** Empty-since times, on the broker's one clock. */
    private final BrokerClock clock;
    private final int initialRebalanceDelayMs;

    GroupRebalancer(BrokerConfig config, ClassicGroups groups, MemberSessions sessions, GroupMetadataWriter metadata,
                    BrokerClock clock) {
        this.groups = groups;
        this.sessions = sessions;
        this.metadata = metadata;
        this.clock = clock;
        this.purgatory = Purgatory.builder("Rebalance").clock(clock.purgatoryClock()).build();
        this.initialRebalanceDelayMs = config.get(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS);
    }

    void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(purgatory).bindTo(registry);
    }

    /** Stops the purgatory; the joins it expires on closing belong to Dead groups, which start nothing. */
    void close() throws InterruptedException {
        purgatory.close();
    }

    // ------------------------------------------------------------------------------------------- Join phase

    /** Starts a rebalance, or if one is under way, checks whether the membership change lets it complete. */
    void rebalanceOrCheck(ClassicGroup group) {
        if (group.state() == GroupState.PREPARING_REBALANCE) {
            purgatory.checkAndComplete(group);
        } else {
            prepareRebalance(group);
        }
    }

    /** A join phase under way may complete now that a member it waited for is gone (a pending one). */
    void checkJoinPhase(ClassicGroup group) {
        if (group.state() == GroupState.PREPARING_REBALANCE) {
            purgatory.checkAndComplete(group);
        }
    }

    private void prepareRebalance(ClassicGroup group) {
        if (group.state() == GroupState.COMPLETING_REBALANCE) {
            // The assignment being synced is for a generation that will not be: tell the waiters to rejoin.
            for (GroupMember member : group.members.values()) {
                member.failSync(Errors.REBALANCE_IN_PROGRESS);
            }
        }
        group.pendingSyncMembers.clear(); // the generation being synced will not be
        boolean firstRebalance = group.state() == GroupState.EMPTY;
        group.transitionTo(GroupState.PREPARING_REBALANCE);
        DelayedOperation join = firstRebalance && initialRebalanceDelayMs > 0
                ? new InitialDelayedJoin(this, group, initialRebalanceDelayMs,
                        Math.max(group.rebalanceTimeoutMs() - initialRebalanceDelayMs, 0))
                : new DelayedJoin(this, group, group.rebalanceTimeoutMs());
        purgatory.tryCompleteElseWatch(join, List.of(group));
    }

    /**
     * Kafka's rule when an initial delay runs out: if a member joined the group's first generation during it
     * and the rebalance timeout leaves budget, wait another delay (cut to the budget left); else end the join.
     */
    void initialDelayElapsed(ClassicGroup group, long remainingMs) {
        synchronized (group) {
            if (group.state() == GroupState.PREPARING_REBALANCE && group.newMemberAdded && remainingMs > 0) {
                group.newMemberAdded = false;
                purgatory.tryCompleteElseWatch(new InitialDelayedJoin(this, group,
                        Math.min(initialRebalanceDelayMs, remainingMs),
                        Math.max(remainingMs - initialRebalanceDelayMs, 0)), List.of(group));
                return;
            }
        }
        completeJoin(group);
    }

    /**
     * Ends the join phase: drops the dynamic members that did not rejoin, starts the next generation, answers the
     * joins. Static members that did not rejoin stay, as in Kafka (KIP-345: a restart must not cost the instance its
     * place; its session timeout decides), and are listed to the leader. If no member rejoined at all, not even one
     * to lead, the join phase waits another rebalance timeout for the sessions to remove the silent ones.
     */
    void completeJoin(ClassicGroup group) {
        synchronized (group) {
            if (group.state() != GroupState.PREPARING_REBALANCE) {
                return; // deleted meanwhile
            }
            for (GroupMember member : List.copyOf(group.members.values())) {
                if (member.awaitingJoin == null && member.groupInstanceId == null) {
                    removeMember(group, member);
                }
            }
            if (!group.members.isEmpty() && !group.electRejoinedLeader()) {
                purgatory.tryCompleteElseWatch(new DelayedJoin(this, group, group.rebalanceTimeoutMs()),
                        List.of(group));
                return;
            }
            group.generationId++;
            if (group.members.isEmpty()) {
                group.transitionTo(GroupState.EMPTY);
                group.protocolName = null;
                group.leaderId = null;
                group.emptySinceMs = clock.wallClockMs();
                metadata.storeEmpty(group, group.toStored(Map.of(), group.emptySinceMs));
                return;
            }
            group.protocolName = group.selectProtocol();
            group.transitionTo(GroupState.COMPLETING_REBALANCE);
            for (GroupMember member : group.members.values()) {
                GroupMember.PendingJoin pending = member.awaitingJoin;
                member.awaitingJoin = null;
                member.assignment = new byte[0];
                if (pending != null) {
                    pending.response().complete(joinResponse(group, member, pending.version()));
                }
                sessions.markAlive(group, member);
                group.pendingSyncMembers.add(member.memberId);
            }
            purgatory.tryCompleteElseWatch(new DelayedSync(this, group, group.generationId,
                    group.rebalanceTimeoutMs()), List.of(group));
        }
    }

    // ------------------------------------------------------------------------------------------- Sync phase

    /** The member sent its SyncGroup; once every member has, the sync phase's timeout is over. */
    void synced(ClassicGroup group, String memberId) {
        if (group.pendingSyncMembers.remove(memberId) && group.pendingSyncMembers.isEmpty()) {
            purgatory.checkAndComplete(group);
        }
    }

    /**
     * Kafka's expirePendingSync: the rebalance timeout ran out with members of this generation that never sent
     * their SyncGroup (after their JoinGroup answer, a client that stalls or dies): they are removed and the group
     * rebalances without them, instead of waiting for their session timeouts while the others cannot sync.
     */
    void expirePendingSync(ClassicGroup group, int generation) {
        synchronized (group) {
            if (!group.awaitsSyncs(generation)) {
                return;
            }
            for (String memberId : List.copyOf(group.pendingSyncMembers)) {
                GroupMember member = group.members.get(memberId);
                if (member != null) {
                    removeMember(group, member);
                }
            }
            group.pendingSyncMembers.clear();
            prepareRebalance(group);
        }
    }

    /**
     * Kafka's storeGroup: writes the group with the leader's assignment, and only once the write counts makes the
     * group Stable and answers the members' syncs. If the write fails every member waiting gets the error Kafka maps
     * it to and the group rebalances again. A rebalance, deletion or unload that came first leaves nothing to store:
     * the generation being synced will not be.
     */
    void storeAssignment(ClassicGroup group, int generation, Map<String, byte[]> assignments) {
        metadata.store(group, () -> assignments, () -> syncing(group, generation), () -> syncing(group, generation),
                () -> propagateAssignment(group, assignments), error -> failAssignment(group, error));
    }

    /** Whether this generation of the group, coordinated here still, is waiting for its assignment. */
    private boolean syncing(ClassicGroup group, int generation) {
        return group.state() == GroupState.COMPLETING_REBALANCE && group.generationId == generation
                && groups.isCurrent(group);
    }

    private static void propagateAssignment(ClassicGroup group, Map<String, byte[]> assignments) {
        for (GroupMember each : group.members.values()) {
            each.assignment = assignments.getOrDefault(each.memberId, new byte[0]);
        }
        group.transitionTo(GroupState.STABLE);
        for (GroupMember each : group.members.values()) {
            each.answerSync(GroupResponses.syncResponse(group.protocolType, group.protocolName, each.assignment));
        }
    }

    /** Kafka's resetAndPropagateAssignmentError, then a new rebalance. */
    private void failAssignment(ClassicGroup group, Errors error) {
        for (GroupMember each : group.members.values()) {
            each.assignment = new byte[0];
            each.failSync(error);
        }
        prepareRebalance(group);
    }

    // ------------------------------------------------------------------------------------------ Members leaving

    /** A member left or missed its session timeout: it is removed, and the group rebalances unless now Empty. */
    void removeMemberAndRebalance(ClassicGroup group, GroupMember member) {
        removeMember(group, member);
        if (group.state() != GroupState.EMPTY && group.state() != GroupState.DEAD) {
            rebalanceOrCheck(group);
        }
    }

    /** Removes the member, ends its session and answers its parked join or sync UNKNOWN_MEMBER_ID. */
    private void removeMember(ClassicGroup group, GroupMember member) {
        group.remove(member);
        sessions.end(member);
        member.failJoin(Errors.UNKNOWN_MEMBER_ID);
        member.failSync(Errors.UNKNOWN_MEMBER_ID);
    }
}
