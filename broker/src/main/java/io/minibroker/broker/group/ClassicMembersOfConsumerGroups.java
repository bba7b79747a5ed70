package io.minibroker.broker.group;

import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Classic-protocol members of a consumer group (a mixed group, after an online upgrade), answered as Kafka's
 * classicGroupJoinToConsumerGroup, classicGroupSyncToConsumerGroup and classicGroupHeartbeatToConsumerGroup answer
 * them: a JoinGroup updates the member's subscription from its embedded consumer protocol and reconciles it like a
 * consumer-protocol heartbeat (the partitions it reports owning in its subscription are the ones it still holds;
 * an eager client reports none), and is answered at once with the member's epoch as the generation and no leader;
 * the SyncGroup that follows gets its assigned partitions; a Heartbeat is answered REBALANCE_IN_PROGRESS when the
 * member should rejoin: the group epoch moved past it, it has partitions to revoke, or partitions it waited for
 * are free now. The group's lock guards each; joins run on the
 * coordinator's thread and are answered once their records are written. Besides its session, a classic member has
 * Kafka's two rebalance timeouts on the broker clock ({@link ConsumerGroupCoordinator#classicJoined}): after a
 * join, it must sync within the join's rebalance timeout; told to rejoin, it must rejoin within its rebalance
 * timeout; else it is fenced as an expired session is.
 */
final class ClassicMembersOfConsumerGroups {

    /** From this JoinGroup version a dynamic member joining with no id is sent one to join with (KIP-394). */
    private static final int KNOWN_MEMBER_ID_VERSION = 4;

    private static final Logger LOG = LoggerFactory.getLogger(ClassicMembersOfConsumerGroups.class);

    private final ConsumerGroupCoordinator consumers;

    ClassicMembersOfConsumerGroups(ConsumerGroupCoordinator consumers) {
        this.consumers = consumers;
    }

    /**
     * A JoinGroup naming a consumer group. An empty one gives way to a classic group (the answer is null: the
     * classic membership takes the join); one with members takes it in.
     */
    CompletableFuture<Struct> join(JoinRequest request) {
        return consumers.yieldToClassic(request.groupId()).thenCompose(error -> {
            if (error == Errors.NONE) {
                return CompletableFuture.completedFuture(null);
            }
            if (error != Errors.INCONSISTENT_GROUP_PROTOCOL) { // the refusal "it has members" means: take it in
                return CompletableFuture.completedFuture(GroupResponses.joinRefused(error));
            }
            return consumers.thread().compose(() -> joinOnCoordinatorThread(request));
        });
    }

    private CompletableFuture<Struct> joinOnCoordinatorThread(JoinRequest request) {
        ConsumerGroup group = consumers.group(request.groupId());
        if (group == null) {
            return CompletableFuture.completedFuture(null);
        }
        synchronized (group) {
            if (group.isDead()) {
                return CompletableFuture.completedFuture(null);
            }
            String disabled = consumers.migration().classicJoinRefusal(request.groupId());
            if (disabled != null) { // Kafka's first check, before the member id (JoinGroup carries no message)
                LOG.info(disabled);
                return refuse(Errors.INCONSISTENT_GROUP_PROTOCOL);
            }
            // Kafka 4.3.1's classicGroupJoinToConsumerGroup: size, then protocols, then the member id round
            if (group.members.size() >= consumers.maxSize()
                    && (request.memberId().isEmpty() || !group.members.containsKey(request.memberId()))) {
                return refuse(Errors.GROUP_MAX_SIZE_REACHED);
            }
            if (!group.supportsClassicProtocols(request.protocolType(), request.protocols().keySet())) {
                return refuse(Errors.INCONSISTENT_GROUP_PROTOCOL);
            }
            if (request.memberId().isEmpty() && request.groupInstanceId() == null
                    && request.version() >= KNOWN_MEMBER_ID_VERSION) {
                return CompletableFuture.completedFuture(
                        GroupResponses.joinError(Errors.MEMBER_ID_REQUIRED, UUID.randomUUID().toString()));
            }
            if (request.groupInstanceId() != null && !request.memberId().isEmpty()) {
                // As Kafka: only a join without a member id may take an instance over; a known one must hold it
                Errors notHolder = group.instanceHolderCheck(request.memberId(), request.groupInstanceId());
                if (notHolder != Errors.NONE) {
                    return refuse(notHolder);
                }
            }
            String protocolName = request.protocols().keySet().iterator().next();
            ConsumerProtocol.Subscription subscription;
            try {
                subscription = ConsumerProtocol.subscription(request.protocols().get(protocolName));
            } catch (ProtocolException e) { // Kafka's deserializeSubscription throws an unexpected exception here
                LOG.warn("Group {}: a classic JoinGroup's embedded consumer protocol is malformed: {}",
                        request.groupId(), e.getMessage());
                return refuse(Errors.UNKNOWN_SERVER_ERROR);
            }
            ConsumerGroupMember member = memberFor(group, request);
            if (member == null) {
                return refuse(Errors.UNKNOWN_MEMBER_ID);
            }
            boolean bump = !group.members.containsKey(member.memberId);
            if (bump) {
                group.add(member);
            }
            member.clientId = request.clientId();
            member.clientHost = request.clientHost();
            member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
            member.classic = new ConsumerGroupMember.ClassicMetadata(request.sessionTimeoutMs(),
                    new LinkedHashMap<>(request.protocols()));
            List<String> names = subscription.topics().stream().distinct().sorted().toList();
            bump |= !names.equals(member.subscribedTopicNames);
            member.subscribedTopicNames = names;
            member.rackId = subscription.rackId();
            consumers.reconcile(group, member, bump,
                    consumers.migration().byId(subscription.ownedPartitions()));
            int generation = member.memberEpoch;
            String memberId = member.memberId;
            return consumers.write(group, member).handle((written, failure) -> {
                if (failure != null) {
                    return GroupResponses.joinError(CoordinatorWriteErrors.answerFor(failure), memberId);
                }
                synchronized (group) { // as Kafka, once the join counts: the sync timeout replaces the join's
                    if (!group.isDead() && group.members.get(memberId) == member) {
                        consumers.classicJoined(group, member, request.rebalanceTimeoutMs());
                    }
                }
                return new JoinGroupResponseView()
                        .errorCode(Errors.NONE.code())
                        .generationId(generation)
                        .protocolType(ConsumerSubscription.PROTOCOL_TYPE)
                        .protocolName(protocolName)
                        .leader("")
                        .memberId(memberId)
                        .struct();
            });
        }
    }

    /**
     * The member the join is for: the classic-protocol member of that id; else a new one, under the id it was given
     * with MEMBER_ID_REQUIRED (or a fresh one), or, for a static member joining without a member id, the holder of
     * its instance id (a consumer-protocol holder is replaced, as Kafka, keeping its epoch and partitions); null if
     * the id names a consumer-protocol member. A group already full took no new member ({@link #join}).
     */
    private ConsumerGroupMember memberFor(ConsumerGroup group, JoinRequest request) {
        ConsumerGroupMember existing = group.members.get(request.memberId());
        if (existing != null) {
            return existing.usesClassicProtocol() ? existing : null;
        }
        String memberId = request.memberId().isEmpty() ? UUID.randomUUID().toString() : request.memberId();
        if (request.groupInstanceId() != null) {
            ConsumerGroupMember previous = group.staticMember(request.groupInstanceId());
            if (previous != null && previous.usesClassicProtocol()) {
                return previous;
            }
            if (previous != null) { // as Kafka: a consumer-protocol instance restarted as classic is taken over
                return consumers.replaceStaticMember(group, previous, memberId);
            }
        }
        ConsumerGroupMember member = new ConsumerGroupMember(memberId);
        member.instanceId = request.groupInstanceId();
        return member;
    }

    /** Kafka throws these refusals: the answer names no member ({@link GroupResponses#joinRefused}). */
    private static CompletableFuture<Struct> refuse(Errors error) {
        return CompletableFuture.completedFuture(GroupResponses.joinRefused(error));
    }

    /**
     * A SyncGroup: the member's assigned partitions, at its epoch; REBALANCE_IN_PROGRESS if the group epoch moved
     * on meanwhile (unless the member is still revoking: it rejoins once it has). As Kafka's
     * throwIfClassicProtocolUnmatched, a protocol type other than "consumer", or a protocol name other than the one
     * the join answered (the member's first), is INCONSISTENT_GROUP_PROTOCOL; the answer echoes the request's.
     */
    Struct sync(ConsumerGroup group, SyncRequest request) {
        synchronized (group) {
            ConsumerGroupMember member = group.isDead() ? null : group.members.get(request.memberId());
            Errors refused = check(group, member, request.generationId(), request.groupInstanceId());
            if (refused == Errors.NONE && request.inconsistentWith(ConsumerSubscription.PROTOCOL_TYPE,
                    member.classic.protocols().keySet().iterator().next())) {
                refused = Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            if (refused != Errors.NONE) {
                return GroupResponses.syncError(refused);
            }
            consumers.sessionAlive(group, member);
            if (group.groupEpoch > member.memberEpoch && member.state != MemberState.UNREVOKED_PARTITIONS) {
                // Kafka's throwIfRebalanceInProgress: a newer epoch to catch up with, unless still revoking
                consumers.classicMustRejoin(group, member);
                return GroupResponses.syncError(Errors.REBALANCE_IN_PROGRESS);
            }
            consumers.classicSynced(member);
            return GroupResponses.syncResponse(request.protocolType(), request.protocolName(),
                    ConsumerProtocol.assignmentBytes(consumers.migration().byName(member.assignedPartitions)));
        }
    }

    /**
     * A Heartbeat: the session goes on; REBALANCE_IN_PROGRESS while the member is not at the group's target epoch,
     * has partitions to revoke or waits for some (its rejoin reconciles it).
     */
    Errors heartbeat(ConsumerGroup group, int generationId, String memberId, String groupInstanceId) {
        synchronized (group) {
            ConsumerGroupMember member = group.isDead() ? null : group.members.get(memberId);
            Errors refused = check(group, member, generationId, groupInstanceId);
            if (refused != Errors.NONE) {
                return refused;
            }
            consumers.sessionAlive(group, member);
            boolean rejoin = member.memberEpoch < group.groupEpoch
                    || member.state == MemberState.UNREVOKED_PARTITIONS
                    || member.state == MemberState.UNRELEASED_PARTITIONS && !waitingOnUnreleased(group, member);
            if (!rejoin) {
                return Errors.NONE;
            }
            consumers.classicMustRejoin(group, member);
            return Errors.REBALANCE_IN_PROGRESS;
        }
    }

    /** Whether another member still holds some partition of the member's target it has not got yet. */
    private static boolean waitingOnUnreleased(ConsumerGroup group, ConsumerGroupMember member) {
        Map<UUID, Map<Integer, String>> owners = group.owners();
        Map<UUID, Set<Integer>> pending = TopicAssignment.difference(group.targetOf(member.memberId),
                member.assignedPartitions);
        return pending.entrySet().stream().anyMatch(topic -> topic.getValue().stream().anyMatch(partition -> {
            String owner = owners.getOrDefault(topic.getKey(), Map.of()).get(partition);
            return owner != null && !owner.equals(member.memberId);
        }));
    }

    /**
     * A LeaveGroup of classic-protocol members: they go, the group epoch moves on once. On the coordinator's thread,
     * as Kafka's classicGroupLeaveToConsumerGroup: each member named gets its own error, and the removals of all that
     * may leave are one coordinator write, answered once it is written; a failed write fails the stage with the
     * log's refusal, and no member's removal was written.
     */
    CompletableFuture<List<Errors>> leave(ConsumerGroup group, List<LeavingMember> leaving) {
        return consumers.thread().compose(() -> {
            synchronized (group) {
                List<Errors> errors = new ArrayList<>();
                List<ConsumerGroupMember> leavers = new ArrayList<>();
                for (LeavingMember named : leaving) {
                    ConsumerGroupMember member = group.isDead() ? null : named.groupInstanceId() != null
                            ? group.staticMember(named.groupInstanceId()) : group.members.get(named.memberId());
                    Errors error = leaveError(member, named);
                    errors.add(error);
                    if (error == Errors.NONE && !leavers.contains(member)) {
                        leavers.add(member);
                    }
                }
                if (leavers.isEmpty()) {
                    return CompletableFuture.completedFuture(errors);
                }
                consumers.removeMembers(group, leavers);
                return consumers.write(group).thenApply(offset -> errors);
            }
        });
    }

    private static Errors leaveError(ConsumerGroupMember member, LeavingMember named) {
        if (member == null || !member.usesClassicProtocol()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (named.groupInstanceId() != null && !named.memberId().isEmpty()
                && !member.memberId.equals(named.memberId())) {
            return Errors.FENCED_INSTANCE_ID;
        }
        return Errors.NONE;
    }

    /** Kafka's validation of a classic member's SyncGroup and Heartbeat in a consumer group. */
    private static Errors check(ConsumerGroup group, ConsumerGroupMember member, int generationId,
                                String groupInstanceId) {
        if (group.isDead()) {
            return Errors.REBALANCE_IN_PROGRESS; // downgraded meanwhile: rejoining finds the classic group
        }
        if (groupInstanceId != null) {
            Errors notHolder = group.instanceHolderCheck(member == null ? null : member.memberId, groupInstanceId);
            if (notHolder != Errors.NONE) {
                return notHolder;
            }
        }
        if (member == null || !member.usesClassicProtocol()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generationId == member.memberEpoch ? Errors.NONE : Errors.ILLEGAL_GENERATION;
    }
}
