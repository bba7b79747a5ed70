package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The state of one classic group (a group of the JoinGroup/SyncGroup protocol, as Kafka calls it since KIP-848; see
 * {@link GroupState} for the state machine, which {@link #transitionTo} enforces). Every field is guarded by the
 * group's own monitor ({@code synchronized (group)}); the coordinator takes only one group's lock at a time.
 */
final class ClassicGroup {

    final String groupId;
    /** Empty for a new group, as stored for a restored one; changed only by {@link #transitionTo}. */
    private GroupState state;
    int generationId;
    /** Null until the first member joins; empty for groups that only ever had simple offset commits. */
    String protocolType;
    String protocolName;
    String leaderId;
    final Map<String, GroupMember> members = new LinkedHashMap<>();
    /** group.instance.id to the member id that currently holds it. */
    final Map<String, String> staticMembers = new HashMap<>();
    /**
     * Members handed their id with MEMBER_ID_REQUIRED that have not joined with it yet. Until they do, or their
     * session timeout forgets them, a join phase waits for them too, as in Kafka: a consumer starting up in the
     * middle of a rebalance lands in the generation being formed.
     */
    final Map<String, GroupMember> pendingMembers = new HashMap<>();
    /**
     * Members answered at the end of this generation's join phase that have not sent their SyncGroup yet (Kafka's
     * pendingSyncMembers): those still here when the rebalance timeout runs out are removed ({@link DelayedSync}).
     */
    final Set<String> pendingSyncMembers = new HashSet<>();
    /** A member joined during the first generation's join phase: an initial delay running out waits another. */
    boolean newMemberAdded;
    /**
     * When the group last became Empty (Kafka's currentStateTimestamp), from which an Empty group's offsets expire;
     * -1 if unknown (a group that only ever had simple commits, or loaded from a record without the time).
     */
    long emptySinceMs = -1;

    /** A new group: Empty. */
    ClassicGroup(String groupId) {
        this(groupId, GroupState.EMPTY);
    }

    /**
     * The restore path: a group loaded from {@code __consumer_offsets} starts in the state its record gives, not
     * through the transitions that led there (Stable with its members: no Empty → PreparingRebalance → ... here).
     */
    private ClassicGroup(String groupId, GroupState initial) {
        this.groupId = groupId;
        this.state = initial;
    }

    /**
     * The group as its last metadata record left it, as Kafka loads it: Stable with its generation, protocol, leader
     * and members (each supporting only the group's protocol, with its subscription and assignment), or Empty
     * without members. Its members' session timeouts are the coordinator's to start.
     */
    static ClassicGroup restored(String groupId, GroupMetadataRecord.StoredGroup stored) {
        ClassicGroup group = new ClassicGroup(groupId,
                stored.members().isEmpty() ? GroupState.EMPTY : GroupState.STABLE);
        group.protocolType = stored.protocolType();
        group.generationId = stored.generation();
        if (stored.members().isEmpty()) {
            group.emptySinceMs = stored.currentStateTimestamp();
            return group;
        }
        group.protocolName = stored.protocol();
        group.leaderId = stored.leader();
        for (GroupMetadataRecord.StoredMember each : stored.members()) {
            GroupMember member = new GroupMember(each.memberId(), each.groupInstanceId(), each.clientId(),
                    each.clientHost());
            member.sessionTimeoutMs = each.sessionTimeoutMs();
            member.rebalanceTimeoutMs = each.rebalanceTimeoutMs();
            member.protocols = new LinkedHashMap<>(Map.of(stored.protocol(), each.subscription()));
            member.assignment = each.assignment();
            group.members.put(member.memberId, member);
            if (member.groupInstanceId != null) {
                group.staticMembers.put(member.groupInstanceId, member.memberId);
            }
        }
        return group;
    }

    GroupState state() {
        return state;
    }

    /**
     * Moves the group to {@code next}, which must allow the current state as its predecessor
     * ({@link GroupState#validPreviousStates}).
     *
     * @throws IllegalStateException if it does not: the caller broke the state machine
     */
    void transitionTo(GroupState next) {
        if (!next.allowsFrom(state)) {
            throw new IllegalStateException("Group " + groupId + " cannot go from " + state.kafkaName() + " to "
                    + next.kafkaName() + "; it may come only from " + next.validPreviousStates());
        }
        state = next;
    }

    /**
     * The group as its metadata record stores it, each member with its assignment in {@code assignments} (none if
     * absent): the leader's assignment being stored, or none for an Empty group.
     */
    GroupMetadataRecord.StoredGroup toStored(Map<String, byte[]> assignments, long now) {
        List<GroupMetadataRecord.StoredMember> stored = new ArrayList<>();
        for (GroupMember member : members.values()) {
            stored.add(new GroupMetadataRecord.StoredMember(member.memberId, member.groupInstanceId,
                    member.clientId, member.clientHost, member.rebalanceTimeoutMs, member.sessionTimeoutMs,
                    member.protocols.get(protocolName), assignments.getOrDefault(member.memberId, new byte[0])));
        }
        return new GroupMetadataRecord.StoredGroup(protocolType == null ? "" : protocolType, generationId,
                protocolName, leaderId, now, stored);
    }

    /**
     * Adds a member that joined; the first member of the group sets its protocol type, and leads if the group has no
     * leader. One that joins the first generation while it forms extends the initial delay under way, if any.
     */
    void add(GroupMember member, String memberProtocolType) {
        if (members.isEmpty()) {
            protocolType = memberProtocolType;
        }
        if (state == GroupState.PREPARING_REBALANCE && generationId == 0) {
            newMemberAdded = true;
        }
        members.put(member.memberId, member);
        if (member.groupInstanceId != null) {
            staticMembers.put(member.groupInstanceId, member.memberId);
        }
        if (leaderId == null) {
            leaderId = member.memberId;
        }
    }

    /** Removes a member; if it led the group, the first member left leads. */
    void remove(GroupMember member) {
        members.remove(member.memberId);
        if (member.groupInstanceId != null) {
            staticMembers.remove(member.groupInstanceId, member.memberId);
        }
        if (member.memberId.equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
        pendingSyncMembers.remove(member.memberId);
    }

    /** A static member's new id takes its old one's place (KIP-345), and its leadership if it led. */
    void replace(GroupMember old, GroupMember replacement) {
        boolean wasLeader = old.memberId.equals(leaderId);
        members.remove(old.memberId);
        members.put(replacement.memberId, replacement);
        staticMembers.put(replacement.groupInstanceId, replacement.memberId);
        if (wasLeader) {
            leaderId = replacement.memberId;
        }
    }

    /**
     * The instance-id half of Kafka's validateMember, for a request naming a static instance: UNKNOWN_MEMBER_ID if
     * the group has no such instance, FENCED_INSTANCE_ID if it now belongs to another member id.
     */
    Errors checkInstance(String groupInstanceId, String memberId) {
        if (groupInstanceId == null) {
            return Errors.NONE;
        }
        String current = staticMembers.get(groupInstanceId);
        if (current == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return current.equals(memberId) ? Errors.NONE : Errors.FENCED_INSTANCE_ID;
    }

    /**
     * Whether a SyncGroup or Heartbeat comes from a member of the current generation: FENCED_INSTANCE_ID,
     * UNKNOWN_MEMBER_ID (also while the group is Empty) or ILLEGAL_GENERATION if not. A Dead group (deleted or
     * unloaded since the request found it) is COORDINATOR_NOT_AVAILABLE, as Kafka: the client finds the coordinator
     * again and rejoins.
     */
    Errors checkMember(int generationId, String memberId, String groupInstanceId) {
        if (state == GroupState.DEAD) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        Errors instance = checkInstance(groupInstanceId, memberId);
        if (instance != Errors.NONE) {
            return instance;
        }
        if (!members.containsKey(memberId) || state == GroupState.EMPTY) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generationId != this.generationId ? Errors.ILLEGAL_GENERATION : Errors.NONE;
    }

    /**
     * Kafka's maybeElectNewJoinedLeader: at the end of a join phase the leader must be a member that rejoined, so
     * one that did takes over from a leader that did not (a static member kept without rejoining). False if no
     * member rejoined.
     */
    boolean electRejoinedLeader() {
        GroupMember leader = leaderId == null ? null : members.get(leaderId);
        if (leader != null && leader.awaitingJoin != null) {
            return true;
        }
        for (GroupMember member : members.values()) {
            if (member.awaitingJoin != null) {
                leaderId = member.memberId;
                return true;
            }
        }
        return false;
    }

    /** Each member's assignment in the current generation. */
    Map<String, byte[]> currentAssignments() {
        Map<String, byte[]> assignments = new HashMap<>();
        members.values().forEach(member -> assignments.put(member.memberId, member.assignment));
        return assignments;
    }

    /** Whether generation {@code generation} is still being synced and some member has not sent its SyncGroup. */
    boolean awaitsSyncs(int generation) {
        return generationId == generation && !pendingSyncMembers.isEmpty()
                && (state == GroupState.COMPLETING_REBALANCE || state == GroupState.STABLE);
    }

    boolean allMembersRejoined() {
        return pendingMembers.isEmpty() && members.values().stream().allMatch(m -> m.awaitingJoin != null);
    }

    /** The longest rebalance timeout of the members: how long the join phase may wait for the slowest. */
    int rebalanceTimeoutMs() {
        return members.values().stream().mapToInt(m -> m.rebalanceTimeoutMs).max().orElse(0);
    }

    /**
     * Whether the members consume {@code topic}, as Kafka's ClassicGroup.isSubscribedToTopic answers it: from their
     * subscriptions when every member's can be read, else (a member's metadata that is no subscription, no protocol
     * chosen yet) yes for a group of the consumer protocol type and no for any other.
     */
    boolean isSubscribedToTopic(String topic) {
        return knownSubscribedTopics().map(topics -> topics.contains(topic))
                .orElse(ConsumerSubscription.PROTOCOL_TYPE.equals(protocolType));
    }

    /** The topics the members subscribe to; empty if any member's metadata is not a subscription (unknown). */
    Optional<Set<String>> knownSubscribedTopics() {
        Set<String> topics = new HashSet<>();
        for (GroupMember member : members.values()) {
            byte[] metadata = protocolName == null ? null : member.protocols.get(protocolName);
            Optional<Set<String>> subscribed = metadata == null ? Optional.empty() : ConsumerSubscription.topics(metadata);
            if (subscribed.isEmpty()) {
                return Optional.empty();
            }
            topics.addAll(subscribed.get());
        }
        return Optional.of(topics);
    }

    /** Whether a member with this protocol type and these protocols could join: one protocol all can use. */
    boolean supports(String memberProtocolType, Collection<String> memberProtocols) {
        if (members.isEmpty()) {
            return !memberProtocolType.isEmpty() && !memberProtocols.isEmpty();
        }
        return memberProtocolType.equals(protocolType)
                && commonProtocols().stream().anyMatch(memberProtocols::contains);
    }

    private Set<String> commonProtocols() {
        Set<String> common = null;
        for (GroupMember member : members.values()) {
            if (common == null) {
                common = new HashSet<>(member.protocols.keySet());
            } else {
                common.retainAll(member.protocols.keySet());
            }
        }
        return common == null ? Set.of() : common;
    }

    /**
     * The protocol for the next generation: among those every member supports, each member votes for the first
     * in its own order of preference; the most votes win, ties going to the leader's preference.
     */
    String selectProtocol() {
        Set<String> common = commonProtocols();
        Map<String, Integer> votes = new HashMap<>();
        for (GroupMember member : members.values()) {
            member.protocols.keySet().stream().filter(common::contains).findFirst()
                    .ifPresent(p -> votes.merge(p, 1, Integer::sum));
        }
        String chosen = null;
        for (String candidate : members.get(leaderId).protocols.keySet()) {
            if (common.contains(candidate)
                    && (chosen == null || votes.getOrDefault(candidate, 0) > votes.getOrDefault(chosen, 0))) {
                chosen = candidate;
            }
        }
        return chosen;
    }
}
