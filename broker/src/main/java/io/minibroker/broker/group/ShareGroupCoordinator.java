package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.sharegroup.ShareGroupTimings;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * The membership side of share groups (KIP-932), Kafka's GroupMetadataManager.shareGroupHeartbeat: members join,
 * heartbeat and leave through ShareGroupHeartbeat; a member coming or going, or a change of what they subscribe to
 * or of those topics' partitions, bumps the group epoch, and the target assignment is computed again at that epoch
 * by the simple assignor ({@link ShareGroupAssignor}). A share-group member needs no reconciliation (a partition may
 * be shared), so each member takes its target, and the group's assignment epoch as its member epoch, on its next
 * heartbeat. Members silent for their group's session timeout ({@link ShareGroupTimings}) are removed
 * ({@link MemberTimeouts}).
 *
 * <p>As for consumer groups, every change is written to {@code __consumer_offsets} ({@link ShareGroups#write}) on
 * the coordinator's thread under the group's lock, and the heartbeat answered once the write counts. A write refused
 * at its append is answered with its error and the group rolled back to its records as last appended
 * ({@link #rollBack}), as Kafka's coordinator runtime reverts a failed append; one appended but not replicated in
 * time is rolled back nowhere, as in Kafka. A group id
 * names one group: an id a group of another type holds is refused here ({@link GroupTypes}), as the other
 * protocols refuse an id a share group holds.
 *
 * <p>As Kafka's, a share partition is assigned only once its state is initialized ({@link ShareGroupStateInitializer}):
 * a heartbeat lists the subscribed partitions with no state yet as initializing, is answered, and then has them
 * initialized; the next heartbeat after that, finding initialized partitions no member holds, bumps the group epoch
 * and assigns them (Kafka's initializedAssignmentPending). DeleteGroups of a share group is
 * {@link ShareGroupDeletion}'s, the offsets admin APIs' part {@link ShareGroupOffsetsAdmin}'s.
 */
final class ShareGroupCoordinator implements MemberTimeouts.Expiry<ShareGroup, ShareGroupMember> {

    private static final Logger LOG = LoggerFactory.getLogger(ShareGroupCoordinator.class);

    private final ShareGroups groups;
    private final GroupTypes types;
    private final CoordinatorThread thread;
    private final ShareGroupAssignor assignor;
    private final MemberTimeouts<ShareGroup, ShareGroupMember> timeouts;
    private final ShareGroupTimings timings;
    private final ShareGroupStateInitializer states;
    private final int maxSize;

    ShareGroupCoordinator(BrokerConfig config, ShareGroups groups, GroupTypes types, CoordinatorThread thread,
                          TopicRegistry topics, TopicHashCache hashes, BrokerClock clock, ShareGroupTimings timings,
                          ShareGroupStateInitializer states) {
        this.groups = groups;
        this.types = types;
        this.thread = thread;
        this.assignor = new ShareGroupAssignor(topics, hashes);
        this.timeouts = new MemberTimeouts<>("ShareGroupHeartbeat", clock, this);
        this.timings = timings;
        this.states = states;
        this.maxSize = config.get(BrokerConfig.GROUP_SHARE_MAX_SIZE);
        groups.rollsBackWith(this::rollBack);
    }

    // ----------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat, validated, then run on the coordinator's thread; answered once its records are written. */
    CompletableFuture<ShareGroupHeartbeat.Response> heartbeat(ShareGroupHeartbeat.Request request) {
        String problem = invalid(request);
        if (problem != null) {
            return completedFuture(ShareGroupHeartbeat.Response.error(Errors.INVALID_REQUEST, problem));
        }
        Errors notHere = groups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return completedFuture(ShareGroupHeartbeat.Response.error(notHere, null));
        }
        return thread.compose(() -> heartbeatOnCoordinatorThread(request));
    }

    /** Kafka's throwIfShareGroupHeartbeatRequestIsInvalid, with its messages; null if valid. */
    private static String invalid(ShareGroupHeartbeat.Request request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return "GroupId can't be empty.";
        }
        if (request.rackId() != null && request.rackId().isEmpty()) {
            return "RackId can't be empty.";
        }
        if (request.memberId() == null || request.memberId().isEmpty()) {
            return "MemberId can't be empty.";
        }
        if (request.memberEpoch() == 0) {
            if (request.subscribedTopicNames() == null || request.subscribedTopicNames().isEmpty()) {
                return "SubscribedTopicNames must be set in first request.";
            }
        } else if (request.memberEpoch() < ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH) {
            return "MemberEpoch is invalid.";
        }
        return null;
    }

    private CompletableFuture<ShareGroupHeartbeat.Response> heartbeatOnCoordinatorThread(
            ShareGroupHeartbeat.Request request) {
        String groupId = request.groupId();
        Errors notHere = groups.coordinatorError(groupId); // it may have moved while queued
        if (notHere != Errors.NONE) {
            return completedFuture(ShareGroupHeartbeat.Response.error(notHere, null));
        }
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            String anotherType = types.notA(GroupType.SHARE, groupId);
            if (anotherType != null) {
                return completedFuture(ShareGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND, anotherType));
            }
            if (request.memberEpoch() != 0) {
                return completedFuture(ShareGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND,
                        "Share group " + groupId + " not found."));
            }
            group = groups.getOrCreate(groupId);
        }
        synchronized (group) {
            if (group.isDead()) { // deleted or unloaded meanwhile: the client retries
                return completedFuture(ShareGroupHeartbeat.Response.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
            }
            boolean leaving = request.memberEpoch() == ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH;
            ShareGroupHeartbeat.Response response = leaving ? leave(group, request) : heartbeat(group, request);
            if (response.error() != Errors.NONE) {
                groups.forgetIfUnwritten(group); // a first join refused: no group was made
                return completedFuture(response);
            }
            Map<UUID, Set<Integer>> listed = leaving ? Map.of() : states.startInitializing(group);
            int stateEpoch = group.groupEpoch;
            ShareGroup heartbeated = group;
            CompletableFuture<Long> write = groups.write(group);
            // Refused at its append, the write was rolled back, the partitions it listed as initializing with it.
            Map<UUID, Set<Integer>> initializing = write.isCompletedExceptionally() ? Map.of() : listed;
            return write.handle((written, failure) -> {
                if (failure != null) {
                    // Appended but not replicated in time: nothing asked for, the next heartbeat asks again.
                    if (!initializing.isEmpty()) {
                        thread.run(() -> states.notInitializing(heartbeated, initializing));
                    }
                    return ShareGroupHeartbeat.Response.error(CoordinatorWriteErrors.answerFor(failure), null);
                }
                // As Kafka's, the answer does not wait for the initialization: the partitions come with a later one.
                if (!initializing.isEmpty()) {
                    states.initialize(heartbeated, initializing, stateEpoch);
                }
                return response;
            });
        }
    }

    /** A member joining (epoch 0) or heartbeating (its epoch); the caller holds the group's lock. */
    private ShareGroupHeartbeat.Response heartbeat(ShareGroup group, ShareGroupHeartbeat.Request request) {
        boolean joining = request.memberEpoch() == 0;
        ShareGroupMember member = group.members.get(request.memberId());
        boolean bump = false;
        if (member == null) {
            if (!joining) {
                return unknownMember(group, request);
            }
            if (group.members.size() >= maxSize) {
                return ShareGroupHeartbeat.Response.error(Errors.GROUP_MAX_SIZE_REACHED,
                        "The share group has reached its maximum capacity of " + maxSize + " members.");
            }
            member = new ShareGroupMember(request.memberId());
            group.members.put(member.memberId, member);
            bump = true;
        } else if (!joining) {
            String fenced = fencedBecause(member, request.memberEpoch());
            if (fenced != null) {
                return ShareGroupHeartbeat.Response.error(Errors.FENCED_MEMBER_EPOCH, fenced);
            }
        }
        int epochBefore = member.memberEpoch;
        Map<UUID, Set<Integer>> assignedBefore = member.assignedPartitions;
        if (request.subscribedTopicNames() != null) {
            List<String> names = request.subscribedTopicNames().stream().distinct().sorted().toList();
            if (!names.equals(member.subscribedTopicNames)) {
                member.subscribedTopicNames = names;
                group.subscriptionsChanged();
                bump = true;
            }
        }
        if (request.rackId() != null) {
            member.rackId = request.rackId();
        }
        member.clientId = request.clientId();
        member.clientHost = request.clientHost();
        // As Kafka: the epoch moves on when the subscribed topics' hash is not the group's, whether they changed
        // while this coordinator ran or before it loaded the group (the hash is read back with it).
        group.subscribedPartitions = assignor.subscribedPartitions(group);
        long hash = assignor.metadataHash(group);
        if (hash != group.metadataHash) {
            group.metadataHash = hash;
            bump = true;
        }
        // Partitions initialized since the target was computed are assigned: Kafka's initializedAssignmentPending.
        bump |= group.assignmentPending && !group.members.isEmpty();
        if (bump) {
            group.groupEpoch++;
        }
        if (group.groupEpoch > group.assignmentEpoch) {
            assignor.computeTarget(group);
        }
        if (member.memberEpoch != group.assignmentEpoch) {
            member.previousMemberEpoch = member.memberEpoch;
            member.memberEpoch = group.assignmentEpoch;
        }
        member.assignedPartitions = group.targetOf(member.memberId);
        timeouts.heartbeat(group, member, timings.sessionTimeoutMs(group.groupId));
        boolean changed = joining || member.memberEpoch != epochBefore
                || !member.assignedPartitions.equals(assignedBefore);
        return new ShareGroupHeartbeat.Response(Errors.NONE, null, member.memberId, member.memberEpoch,
                timings.heartbeatIntervalMs(group.groupId), changed ? member.assignedPartitions : null);
    }

    private static ShareGroupHeartbeat.Response unknownMember(ShareGroup group, ShareGroupHeartbeat.Request request) {
        return ShareGroupHeartbeat.Response.error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId()
                + " is not a member of group " + group.groupId + ".");
    }

    /**
     * Kafka's epoch check for share-group members: the member's epoch, or its previous one if the answer that moved
     * it on was lost; a greater or any other smaller epoch is fenced. Null if the epoch is accepted.
     */
    private static String fencedBecause(ShareGroupMember member, int received) {
        if (received > member.memberEpoch) {
            return "The share group member has a greater member epoch (" + received + ") than the one known by the"
                    + " group coordinator (" + member.memberEpoch + "). The member must abandon all its partitions"
                    + " and rejoin.";
        }
        if (received < member.memberEpoch && received != member.previousMemberEpoch) {
            return "The share group member has a smaller member epoch (" + received + ") than the one known by the"
                    + " group coordinator (" + member.memberEpoch + "). The member must abandon all its partitions"
                    + " and rejoin.";
        }
        return null;
    }

    /** Epoch -1: the member leaves; the group epoch moves on, so its partitions go to the others. */
    private ShareGroupHeartbeat.Response leave(ShareGroup group, ShareGroupHeartbeat.Request request) {
        ShareGroupMember member = group.members.get(request.memberId());
        if (member == null) {
            return unknownMember(group, request);
        }
        removeMember(group, member);
        return new ShareGroupHeartbeat.Response(Errors.NONE, null, member.memberId,
                ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, 0, null);
    }

    /**
     * A member leaves (or its session ends) in one bump of the group epoch, as Kafka's shareGroupFenceMember: its
     * target goes, and the group's subscribed topics and their metadata hash become those of the members left, in
     * that same bump (Kafka writes the hash without the member in its epoch record), so the next heartbeat does not
     * count the change again. That heartbeat bumps once more only if initialized partitions the group subscribes to
     * are now in no member's target (Kafka's initializedAssignmentPending): the leaver's, unless another member holds
     * them too.
     */
    private void removeMember(ShareGroup group, ShareGroupMember member) {
        timeouts.end(member);
        group.members.remove(member.memberId);
        group.targetAssignment.remove(member.memberId);
        recomputeSubscription(group);
        group.metadataHash = assignor.metadataHash(group);
        group.groupEpoch++;
    }

    /**
     * Recomputes what the group's members now subscribe to (a member left, or the group was replayed from the
     * offsets topic), and whether initialized partitions it subscribes to are in no member's target assignment
     * (Kafka's initializedAssignmentPending): those the next heartbeat assigns, bumping the group epoch for them.
     */
    private void recomputeSubscription(ShareGroup group) {
        group.subscriptionsChanged();
        group.subscribedPartitions = assignor.subscribedPartitions(group);
        group.assignmentPending = !ShareGroupAssignor.targetIsCurrent(group);
    }

    @Override
    public void expired(ShareGroup group, ShareGroupMember member, LongSupplier current, long token, String why) {
        thread.run(() -> {
            synchronized (group) {
                if (group.isDead() || group.members.get(member.memberId) != member || current.getAsLong() != token) {
                    return;
                }
                LOG.info("Removing member {} of share group {}: its {} expired", member.memberId, group.groupId, why);
                removeMember(group, member);
                if (groups.write(group).isCompletedExceptionally()) { // refused at its append: rolled back
                    timeouts.retryRemoval(group, group.members.get(member.memberId));
                }
            }
        });
    }

    // ---------------------------------------------------------------------------------------- Loads, unloads

    /** A group replayed from the offsets topic: listed again, its members' sessions started afresh. */
    void restore(ShareGroup group) {
        synchronized (group) {
            recomputeSubscription(group);
            groups.restored(group);
            states.replayed(group);
            for (ShareGroupMember member : group.members.values()) {
                timeouts.heartbeat(group, member, timings.sessionTimeoutMs(group.groupId));
            }
        }
    }

    /**
     * A write of the group refused at its append: the group is put back as its records last appended give it, what
     * a load gives (its state partitions, record 15, included), as for consumer groups
     * ({@link ConsumerGroupCoordinator}): a member whose join was refused is no member, one whose leave or expiry
     * was refused is back with a fresh session (an expiry is tried again: {@link MemberTimeouts#retryRemoval}), an
     * epoch whose bump was refused is not bumped. A group none of whose
     * records was written is forgotten, as Kafka's would never have been. The caller holds its lock.
     */
    private void rollBack(ShareGroup group) {
        ShareGroup before = ShareGroupRecords.rebuild(group.groupId, group.written);
        if (before == null) {
            unload(group);
            return;
        }
        List<ShareGroupMember> members = RolledBackMembers.of(group.members, before.members,
                member -> ShareGroupRecords.isAsWritten(group, member), (now, member) -> {
                    if (now != null) {
                        timeouts.end(now);
                    }
                    timeouts.heartbeat(group, member, timings.sessionTimeoutMs(group.groupId));
                }, timeouts::end);
        group.members.clear();
        members.forEach(member -> group.members.put(member.memberId, member));
        group.targetAssignment.clear();
        group.targetAssignment.putAll(before.targetAssignment);
        group.groupEpoch = before.groupEpoch;
        group.assignmentEpoch = before.assignmentEpoch;
        group.metadataHash = before.metadataHash;
        group.statePartitions = before.statePartitions;
        states.replayed(group);
        recomputeSubscription(group);
        LOG.info("Share group {}: a refused write rolled back, to group epoch {}", group.groupId, group.groupEpoch);
    }

    /** Forgets a group whose partition this broker no longer leads; its members' sessions end. */
    void unload(ShareGroup group) {
        synchronized (group) {
            group.members.values().forEach(timeouts::end);
            groups.forget(group);
        }
    }


    void bindMetersTo(MeterRegistry registry) {
        timeouts.bindMetersTo(registry);
    }

    void close() throws InterruptedException {
        timeouts.close();
    }
}
