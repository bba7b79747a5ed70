package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.minibroker.broker.group.GroupResponses.joinError;
import static io.minibroker.broker.group.GroupResponses.joinResponse;
import static io.minibroker.broker.group.GroupResponses.syncError;
import static io.minibroker.broker.group.GroupResponses.syncResponse;

/**
 * The membership of classic groups, Kafka's GroupMetadataManager for them: JoinGroup (static members too, KIP-345),
 * SyncGroup, Heartbeat, LeaveGroup and session expiry, and the groups' restore on loading, unloading and closing. It
 * owns the two purgatories through its parts: {@link GroupRebalancer} (the "Rebalance" purgatory of joins waiting
 * for the other members, and the rebalance that moves a group through its {@link GroupState}s) and
 * {@link MemberSessions} (the "Heartbeat" purgatory of session timeouts); a group's metadata goes to the offsets
 * topic through {@link GroupMetadataWriter}.
 *
 * <p>Each group is guarded by its own monitor and no thread holds two group locks, so groups never deadlock
 * with each other. Purgatory callbacks never run under a purgatory lock, and the operations of one group only
 * take that group's (reentrant) lock, so calling a purgatory while holding a group lock is safe. Completing a
 * response future under a group lock only enqueues the response onto its channel's event loop.
 */
final class ClassicGroupCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(ClassicGroupCoordinator.class);

    private final ClassicGroups groups;
    private final GroupMetadataWriter metadata;
    private final MemberSessions sessions;
    private final GroupRebalancer rebalancer;
    private final int minSessionTimeoutMs;
    private final int maxSessionTimeoutMs;
    private final int maxSize;

    ClassicGroupCoordinator(BrokerConfig config, ClassicGroups groups, GroupMetadataWriter metadata,
                            BrokerClock clock) {
        this.groups = groups;
        this.metadata = metadata;
        this.sessions = new MemberSessions(clock, this::expireSession);
        this.rebalancer = new GroupRebalancer(config, groups, sessions, metadata, clock);
        this.minSessionTimeoutMs = config.get(BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS);
        this.maxSessionTimeoutMs = config.get(BrokerConfig.GROUP_MAX_SESSION_TIMEOUT_MS);
        this.maxSize = config.get(BrokerConfig.GROUP_MAX_SIZE);
    }

    /** {@code group.max.size}: how many members a classic group may have. */
    int maxSize() {
        return maxSize;
    }

    /** Publishes both purgatories' meters, as the broker does for its other purgatories. */
    void bindMetersTo(MeterRegistry registry) {
        rebalancer.bindMetersTo(registry);
        sessions.bindMetersTo(registry);
    }

    // ------------------------------------------------------------------------------------ Loading and unloading

    /**
     * Lists a group recreated from its last metadata record ({@link ClassicGroup#restored}), each member's session
     * timeout started afresh, so that its next Heartbeat or OffsetCommit with the stored generation succeeds here and
     * one that never comes back expires and starts a rebalance as usual. A group with more members than
     * {@code group.max.size} (lowered since it was written) starts a rebalance at once, as Kafka's onLoaded does, "to
     * give a chance for consumers to commit offsets": its members are told to rejoin, and those beyond the size are
     * refused GROUP_MAX_SIZE_REACHED ({@link #acceptsJoiningMember}) and leave the group with its join phase.
     */
    void restore(ClassicGroup group) {
        groups.restored(group);
        synchronized (group) {
            group.members.values().forEach(member -> sessions.markAlive(group, member));
            if (group.members.size() > maxSize) {
                LOG.info("Freshly-loaded group {} (size {}) is over capacity {}. Rebalancing in order to give a chance"
                        + " for consumers to commit offsets", group.groupId, group.members.size(), maxSize);
                rebalancer.rebalanceOrCheck(group);
            }
        }
    }

    /**
     * The group is no longer coordinated here (Kafka's onResignation): it is forgotten, its parked joins and syncs
     * answered NOT_COORDINATOR so that their clients find the new coordinator, its sessions ended.
     */
    void unload(ClassicGroup group) {
        synchronized (group) {
            answerWaiters(group, Errors.NOT_COORDINATOR);
            group.members.values().forEach(sessions::end);
            group.pendingMembers.values().forEach(sessions::end);
            groups.remove(group);
        }
    }

    /** Whether no classic group of that id has members: none holds the id, or one with commits only, or left. */
    boolean isEmpty(String groupId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return true;
        }
        synchronized (group) {
            return group.members.isEmpty();
        }
    }

    /**
     * Gives the id of an empty classic group to a group of another protocol, as Kafka's maybeDeleteEmptyClassicGroup
     * does for a first StreamsGroupHeartbeat: an Empty one (commits only, or left by its members; pending joins are
     * told to rejoin) is released, its commits staying with the id. Returns whether no classic group holds the id
     * now; false while the classic group has members. On the coordinator's thread.
     */
    boolean releaseIfEmpty(String groupId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return true;
        }
        synchronized (group) {
            if (!group.members.isEmpty()) {
                return false;
            }
            if (group.state() != GroupState.DEAD) {
                release(group);
            }
            return true;
        }
    }

    /**
     * The group is being upgraded to a consumer group (the caller holds its lock, on the coordinator's thread): as
     * Kafka's convertToConsumerGroup, its parked joins and syncs are answered REBALANCE_IN_PROGRESS so that their
     * members rejoin the consumer group, its sessions end (the consumer group times its members out now) and it is
     * forgotten.
     */
    void release(ClassicGroup group) {
        answerWaiters(group, Errors.REBALANCE_IN_PROGRESS);
        group.members.values().forEach(sessions::end);
        group.pendingMembers.values().forEach(member -> {
            member.failJoin(Errors.REBALANCE_IN_PROGRESS);
            sessions.end(member);
        });
        groups.remove(group);
    }

    /**
     * A consumer group downgraded to this classic group (Kafka's convertToClassicGroup): listed with its members'
     * sessions started, then rebalanced so that every member rejoins through the classic protocol.
     */
    void adopt(ClassicGroup group) {
        restore(group);
        synchronized (group) {
            rebalancer.rebalanceOrCheck(group);
        }
    }

    /**
     * Makes every group Dead and answers its parked JoinGroups and SyncGroups NOT_COORDINATOR (the client looks for
     * its coordinator again), then stops both purgatories: the joins and sessions they expire on closing start no
     * rebalance, the groups being dead.
     */
    void close() throws InterruptedException {
        for (ClassicGroup group : groups.all()) {
            synchronized (group) {
                group.transitionTo(GroupState.DEAD);
                answerWaiters(group, Errors.NOT_COORDINATOR);
            }
        }
        rebalancer.close();
        sessions.close();
    }

    /** Answers every member's parked join and sync with {@code error}. */
    private static void answerWaiters(ClassicGroup group, Errors error) {
        for (GroupMember member : group.members.values()) {
            member.failJoin(error);
            member.failSync(error);
        }
    }

    // ---------------------------------------------------------------------------------------------- JoinGroup

    CompletableFuture<Struct> join(JoinRequest request) {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        if (request.groupId().isEmpty()) {
            return completed(joinError(Errors.INVALID_GROUP_ID, request.memberId()));
        }
        Errors notHere = groups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return completed(joinError(notHere, request.memberId()));
        }
        if (request.sessionTimeoutMs() < minSessionTimeoutMs || request.sessionTimeoutMs() > maxSessionTimeoutMs) {
            return completed(joinError(Errors.INVALID_SESSION_TIMEOUT, request.memberId()));
        }
        boolean newMember = request.memberId().isEmpty();
        ClassicGroup group = newMember ? groups.live(request.groupId()) : groups.get(request.groupId());
        if (group == null) {
            return completed(joinError(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
        }
        synchronized (group) {
            if (!acceptsJoiningMember(group, request.memberId())) {
                // Kafka's first check of the group (acceptJoiningMember); a member it refuses loses its place
                removeRefusedMember(group, request.memberId());
                return completed(joinError(Errors.GROUP_MAX_SIZE_REACHED, ""));
            }
            if (group.state() == GroupState.DEAD) {
                // Deleted meanwhile: the client finds the coordinator again and retries on a fresh group.
                return completed(joinError(Errors.COORDINATOR_NOT_AVAILABLE, request.memberId()));
            }
            if (!group.supports(request.protocolType(), request.protocols().keySet())) {
                return completed(joinError(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
            }
            String instanceId = request.groupInstanceId();
            if (instanceId != null && !newMember && !group.staticMembers.containsKey(instanceId)) {
                // Kafka's validateMember: a known member id naming an instance the group does not know of
                return completed(joinError(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
            }
            if (instanceId != null) {
                joinStatic(group, request, response);
            } else if (newMember) {
                String memberId = request.clientId() + "-" + UUID.randomUUID();
                if (request.version() >= 4) {
                    // KIP-394: the client must come back with this id, so a retried join cannot add a ghost member.
                    GroupMember pending = new GroupMember(memberId, null, request.clientId(), request.clientHost());
                    pending.sessionTimeoutMs = request.sessionTimeoutMs();
                    group.pendingMembers.put(memberId, pending);
                    // Its session timeout: it is forgotten if it does not come back with its id in time.
                    sessions.markAlive(group, pending);
                    return completed(joinError(Errors.MEMBER_ID_REQUIRED, memberId));
                }
                addMemberAndRebalance(group, memberId, request, response);
            } else if (group.pendingMembers.containsKey(request.memberId())) {
                sessions.end(group.pendingMembers.remove(request.memberId()));
                addMemberAndRebalance(group, request.memberId(), request, response);
            } else {
                GroupMember member = group.members.get(request.memberId());
                if (member == null) {
                    return completed(joinError(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
                }
                rejoin(group, member, request, response);
            }
        }
        return response;
    }

    /**
     * Kafka's acceptJoiningMember under {@code group.max.size}: an Empty or Dead group takes anyone; while members
     * rejoin, one already waiting to, or any while fewer than the limit wait; otherwise a member, or anyone while
     * the group has fewer members than the limit.
     */
    private boolean acceptsJoiningMember(ClassicGroup group, String memberId) {
        GroupMember member = group.members.get(memberId);
        return switch (group.state()) {
            case EMPTY, DEAD -> true;
            case PREPARING_REBALANCE -> member != null && member.awaitingJoin != null
                    || group.members.values().stream().filter(m -> m.awaitingJoin != null).count() < maxSize;
            case COMPLETING_REBALANCE, STABLE -> member != null || group.members.size() < maxSize;
        };
    }

    /** A join refused GROUP_MAX_SIZE_REACHED takes its member (or pending member) out, as Kafka's group.remove. */
    private void removeRefusedMember(ClassicGroup group, String memberId) {
        GroupMember pending = group.pendingMembers.get(memberId);
        if (pending != null) {
            removePendingMember(group, pending);
        }
        GroupMember member = group.members.get(memberId);
        if (member != null) {
            rebalancer.removeMemberAndRebalance(group, member);
        }
    }

    /**
     * A join naming a {@code group.instance.id} (KIP-345). A known instance that comes back without its member id
     * (a restarted process) takes over the old member's place and assignment under a new member id; while the
     * group is Stable and the protocol the group would choose stays the same, that needs no rebalance. A join with
     * the old member id of a replaced instance is fenced.
     */
    private void joinStatic(ClassicGroup group, JoinRequest request, CompletableFuture<Struct> response) {
        String knownMemberId = group.staticMembers.get(request.groupInstanceId());
        if (knownMemberId == null) {
            addMemberAndRebalance(group, request.clientId() + "-" + UUID.randomUUID(), request, response);
        } else if (!request.memberId().isEmpty()) {
            if (request.memberId().equals(knownMemberId)) {
                rejoin(group, group.members.get(knownMemberId), request, response);
            } else {
                response.complete(joinError(Errors.FENCED_INSTANCE_ID, request.memberId()));
            }
        } else {
            replaceStaticMember(group, group.members.get(knownMemberId), request, response);
        }
    }

    /**
     * As Kafka: in a Stable group only a change of the protocol the group would select calls for a rebalance. New
     * subscription bytes alone do not (kafka-clients put owned partitions and the generation in them, so they
     * differ on nearly every restart), nor does the replaced member having led the group: the assignment stands.
     */
    private void replaceStaticMember(ClassicGroup group, GroupMember old, JoinRequest request,
                                     CompletableFuture<Struct> response) {
        GroupMember replacement = newMember(request.clientId() + "-" + UUID.randomUUID(), request);
        replacement.assignment = old.assignment;
        String replacedLeader = group.leaderId;
        fence(old);
        group.replace(old, replacement);
        replacement.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
        if (group.state() == GroupState.STABLE && group.selectProtocol().equals(group.protocolName)) {
            sessions.markAlive(group, replacement);
            storeStaticReplacement(group, old, replacement, replacedLeader, replacement.awaitingJoin);
            return;
        }
        rebalancer.rebalanceOrCheck(group);
    }

    /**
     * As Kafka, stores the group once a static member's new id took the old one's place in a Stable group, so that a
     * coordinator loading the group knows the new id, and answers the join once the write counts. Meanwhile the join
     * waits as the member's: a rebalance that starts first answers it (and stores the group when it completes), as
     * does the member's removal. If the write fails the old member takes its place back and the join gets the error
     * Kafka maps the failure to.
     */
    private void storeStaticReplacement(ClassicGroup group, GroupMember old, GroupMember replacement,
                                        String replacedLeader, GroupMember.PendingJoin join) {
        metadata.store(group, group::currentAssignments,
                () -> replacement.awaitingJoin == join && group.state() == GroupState.STABLE,
                () -> replacement.awaitingJoin == join,
                () -> {
                    replacement.awaitingJoin = null;
                    join.response().complete(GroupResponses.staticReplacementJoinResponse(group, replacement,
                            replacedLeader, join.version()));
                },
                error -> restoreReplacedMember(group, old, replacement, error));
    }

    /** Undoes a static member's replacement that could not be stored, failing the replacement's join. */
    private void restoreReplacedMember(ClassicGroup group, GroupMember old, GroupMember replacement, Errors error) {
        GroupMember.PendingJoin join = replacement.awaitingJoin;
        replacement.awaitingJoin = null;
        sessions.end(replacement);
        group.replace(replacement, old); // the leadership too, now that a leader is replaced without a rebalance
        sessions.markAlive(group, old);
        join.response().complete(joinError(error, ""));
    }

    /** Ends whatever the replaced member of a static instance was waiting for, and its session timeout. */
    private void fence(GroupMember old) {
        sessions.end(old);
        old.failJoin(Errors.FENCED_INSTANCE_ID);
        old.failSync(Errors.FENCED_INSTANCE_ID);
    }

    /** A member as the join describes it, not waiting for anything yet. */
    private static GroupMember newMember(String memberId, JoinRequest request) {
        GroupMember member = new GroupMember(memberId, request.groupInstanceId(), request.clientId(),
                request.clientHost());
        member.sessionTimeoutMs = request.sessionTimeoutMs();
        member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        member.protocols = request.protocols();
        return member;
    }

    private void addMemberAndRebalance(ClassicGroup group, String memberId, JoinRequest request,
                                       CompletableFuture<Struct> response) {
        GroupMember member = newMember(memberId, request);
        member.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
        group.add(member, request.protocolType());
        rebalancer.rebalanceOrCheck(group);
    }

    private void rejoin(ClassicGroup group, GroupMember member, JoinRequest request,
                        CompletableFuture<Struct> response) {
        boolean sameProtocols = sameProtocols(member.protocols, request.protocols());
        switch (group.state()) {
            case PREPARING_REBALANCE -> {
                update(member, request, response);
                rebalancer.rebalanceOrCheck(group);
            }
            case COMPLETING_REBALANCE, STABLE -> {
                if (sameProtocols && !(group.state() == GroupState.STABLE && member.memberId.equals(group.leaderId))) {
                    // Nothing changed (a retried join): answer with the current generation.
                    sessions.markAlive(group, member);
                    response.complete(joinResponse(group, member, request.version()));
                } else {
                    update(member, request, response);
                    rebalancer.rebalanceOrCheck(group);
                }
            }
            case EMPTY, DEAD -> response.complete(joinError(Errors.UNKNOWN_MEMBER_ID, member.memberId));
        }
    }

    private static void update(GroupMember member, JoinRequest request, CompletableFuture<Struct> response) {
        member.sessionTimeoutMs = request.sessionTimeoutMs();
        member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        member.protocols = request.protocols();
        // A second join from the same member replaces the first; the first learns it was superseded.
        member.failJoin(Errors.REBALANCE_IN_PROGRESS);
        member.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
    }

    private static boolean sameProtocols(Map<String, byte[]> current, Map<String, byte[]> requested) {
        if (!List.copyOf(current.keySet()).equals(List.copyOf(requested.keySet()))) {
            return false;
        }
        return current.entrySet().stream().allMatch(e -> Arrays.equals(e.getValue(), requested.get(e.getKey())));
    }

    // ---------------------------------------------------------------------------------------------- SyncGroup

    /**
     * As Kafka's validateSyncGroup: after the member and generation checks, a protocol type or name (v5+) other
     * than the group's is INCONSISTENT_GROUP_PROTOCOL; a successful answer carries the group's.
     */
    CompletableFuture<Struct> sync(SyncRequest request) {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        Errors notHere = groups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            // While loading, the rebalance under way is lost: REBALANCE_IN_PROGRESS sends the member back to
            // JoinGroup here, as the old Scala coordinator answered. Kafka 4.x answers COORDINATOR_LOAD_IN_PROGRESS,
            // which every kafka-clients SyncGroupResponseHandler fails as an unexpected error (docs/compatibility.md).
            return completed(syncError(notHere == Errors.COORDINATOR_LOAD_IN_PROGRESS
                    ? Errors.REBALANCE_IN_PROGRESS : notHere));
        }
        ClassicGroup group = groups.get(request.groupId());
        if (group == null) {
            return completed(syncError(Errors.UNKNOWN_MEMBER_ID));
        }
        String memberId = request.memberId();
        synchronized (group) {
            Errors refused = group.checkMember(request.generationId(), memberId, request.groupInstanceId());
            if (refused == Errors.NONE && request.inconsistentWith(group.protocolType, group.protocolName)) {
                refused = Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            if (refused != Errors.NONE) {
                return completed(syncError(refused));
            }
            GroupMember member = group.members.get(memberId);
            switch (group.state()) {
                case PREPARING_REBALANCE -> response.complete(syncError(Errors.REBALANCE_IN_PROGRESS));
                case STABLE -> {
                    sessions.markAlive(group, member);
                    rebalancer.synced(group, memberId);
                    response.complete(syncResponse(group.protocolType, group.protocolName, member.assignment));
                }
                default -> {
                    member.failSync(Errors.REBALANCE_IN_PROGRESS); // a retried sync replaces the earlier one
                    member.awaitingSync = response;
                    sessions.markAlive(group, member);
                    rebalancer.synced(group, memberId);
                    if (memberId.equals(group.leaderId)) {
                        rebalancer.storeAssignment(group, group.generationId, request.assignments());
                    }
                }
            }
        }
        return response;
    }

    // ---------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat while the group is loading is answered NONE, as Kafka answers it "blindly". */
    Errors heartbeat(String groupId, int generationId, String memberId, String groupInstanceId) {
        Errors notHere = groups.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere == Errors.COORDINATOR_LOAD_IN_PROGRESS ? Errors.NONE : notHere;
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        synchronized (group) {
            Errors refused = group.checkMember(generationId, memberId, groupInstanceId);
            if (refused != Errors.NONE) {
                return refused;
            }
            sessions.markAlive(group, group.members.get(memberId));
            return group.state() == GroupState.PREPARING_REBALANCE ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
        }
    }

    // --------------------------------------------------------------------------------------------- LeaveGroup

    /** Removes a member named by id, or (v3+, static members) by instance id with an empty member id. */
    Errors leave(String groupId, String memberId, String groupInstanceId) {
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        synchronized (group) {
            GroupMember pending = group.pendingMembers.get(memberId);
            if (pending != null) {
                removePendingMember(group, pending);
                return Errors.NONE;
            }
            if (groupInstanceId != null && !memberId.isEmpty()
                    && group.checkInstance(groupInstanceId, memberId) != Errors.NONE) {
                return group.checkInstance(groupInstanceId, memberId);
            }
            GroupMember member = group.members.get(groupInstanceId != null && memberId.isEmpty()
                    ? group.staticMembers.getOrDefault(groupInstanceId, "") : memberId);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            rebalancer.removeMemberAndRebalance(group, member);
            return Errors.NONE;
        }
    }

    // ------------------------------------------------------------------------------------------ Session expiry

    /** The members' session timeouts; a commit from a member refreshes its session too. */
    MemberSessions sessions() {
        return sessions;
    }

    /** A member's session ran out: unless it is waiting on the coordinator, it leaves and the group rebalances. */
    void expireSession(ClassicGroup group, GroupMember member, long epoch) {
        synchronized (group) {
            if (member.livenessEpoch != epoch) {
                return;
            }
            if (group.pendingMembers.get(member.memberId) == member) {
                removePendingMember(group, member); // told MEMBER_ID_REQUIRED, it never came back
                return;
            }
            if (group.members.get(member.memberId) != member) {
                return;
            }
            if (member.awaitingJoin != null || member.awaitingSync != null) {
                // A member waiting on the coordinator cannot heartbeat; the rebalance timeout bounds that wait.
                sessions.markAlive(group, member);
                return;
            }
            if (group.state() != GroupState.DEAD) { // a Dead group's sessions end so at the broker's close
                // Logged, as Kafka logs it: the member's client learns of it only when told to rejoin.
                LOG.info("Group {}: member {} removed, its session timed out", group.groupId, member.memberId);
            }
            rebalancer.removeMemberAndRebalance(group, member);
        }
    }

    /** Forgets a pending member; a join phase that waited only for it can complete now. */
    private void removePendingMember(ClassicGroup group, GroupMember pending) {
        group.pendingMembers.remove(pending.memberId);
        sessions.end(pending);
        rebalancer.checkJoinPhase(group);
    }

    private static CompletableFuture<Struct> completed(Struct response) {
        return CompletableFuture.completedFuture(response);
    }
}
