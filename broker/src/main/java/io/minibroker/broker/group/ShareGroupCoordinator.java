package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.broker.share.ShareStateDeletion;
import io.minibroker.broker.share.ShareStateInitialization;
import io.minibroker.broker.sharegroup.ShareGroupTimings;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The membership side of share groups (KIP-932), Kafka's GroupMetadataManager.shareGroupHeartbeat: members join,
 * heartbeat and leave through ShareGroupHeartbeat; a member coming or going, or a change of what they subscribe to
 * or of those topics' partitions, bumps the group epoch, and the target assignment is computed again at that epoch
 * by the simple assignor ({@link ShareGroupAssignor}). A share-group member needs no reconciliation (a partition may
 * be shared), so each member takes its target, and the group's assignment epoch as its member epoch, on its next
 * heartbeat. Members silent for their group's session timeout ({@link ShareGroupTimings}) are removed
 * ({@link ShareGroupSessions}).
 *
 * <p>As for consumer groups, every change is written to {@code __consumer_offsets} ({@link ShareGroupRecords}) on
 * the coordinator's thread under the group's lock, and the heartbeat answered once the write counts. A group id
 * names one group: an id held by a classic or consumer group is refused here (GROUP_ID_NOT_FOUND, "is not a share
 * group"), and those protocols refuse an id held by a share group.
 *
 * <p>As Kafka's, a share partition is assigned only once its state is initialized (record 15,
 * {@link ShareGroupStatePartitions}): a heartbeat lists the subscribed partitions with no state yet as initializing
 * (written with its other records), is answered, and then has the delivery side initialize them
 * ({@link ShareStateInitialization}: InitializeShareGroupState, the group epoch as state epoch); once that counts they
 * are written as initialized, and the next heartbeat, finding initialized partitions no member holds, bumps the group
 * epoch and assigns them (Kafka's initializedAssignmentPending). A failed initialization takes them out of
 * initializing, and a later heartbeat asks again.
 *
 * <p>It also answers the share-group offsets admin APIs' questions ({@link ShareGroupMembership}) and keeps the
 * partitions AlterShareGroupOffsets sets in record 15, making the group if there is none, as Kafka's
 * GroupMetadataManager does: initializing until their resets count, initialized then.
 */
final class ShareGroupCoordinator implements ShareGroupSessions.Expiry, ShareGroupMembership {

    private static final Logger LOG = LoggerFactory.getLogger(ShareGroupCoordinator.class);

    private final Map<String, ShareGroup> groups = new ConcurrentHashMap<>();
    private final ClassicGroups classicGroups;
    private final ConsumerGroups consumerGroups;
    private final OffsetsTopic log;
    private final CoordinatorThread thread;
    private final ShareGroupAssignor assignor;
    private final TopicRegistry topics;
    private final ShareGroupSessions sessions;
    private final ShareGroupTimings timings;
    private final int maxSize;
    private final BrokerClock clock;
    /**
     * group.share.initialize.retry.interval.ms, at least offsets.commit.timeout.ms as in Kafka's
     * GroupCoordinatorConfig: how long a partition may stay initializing before a heartbeat asks for it again.
     */
    private final long initializeRetryMs;
    /** The delivery side's, known once the broker has made both; none for the membership side alone. */
    private volatile ShareStateDeletion stateDeletion = ShareStateDeletion.NONE;
    private volatile ShareStateInitialization stateInitialization = ShareStateInitialization.NONE;

    ShareGroupCoordinator(BrokerConfig config, ClassicGroups classicGroups, ConsumerGroups consumerGroups,
                          OffsetsTopic log, CoordinatorThread thread, TopicRegistry topics, BrokerClock clock,
                          ShareGroupTimings timings) {
        this.classicGroups = classicGroups;
        this.consumerGroups = consumerGroups;
        this.log = log;
        this.thread = thread;
        this.assignor = new ShareGroupAssignor(topics);
        this.topics = topics;
        this.sessions = new ShareGroupSessions(clock, this);
        this.timings = timings;
        this.maxSize = config.get(BrokerConfig.GROUP_SHARE_MAX_SIZE);
        this.clock = clock;
        this.initializeRetryMs = Math.max(config.get(BrokerConfig.GROUP_SHARE_INITIALIZE_RETRY_INTERVAL_MS),
                config.get(BrokerConfig.OFFSETS_COMMIT_TIMEOUT_MS));
    }

    /** How DeleteGroups deletes a share group's share-partition state first. */
    void deleteStateWith(ShareStateDeletion deletion) {
        this.stateDeletion = deletion;
    }

    /** How a heartbeat initializes the share partitions' state before they are assigned. */
    void initializeStateWith(ShareStateInitialization initialization) {
        this.stateInitialization = initialization;
    }

    /** The share group of that id, or null if there is none. */
    ShareGroup get(String groupId) {
        return groups.get(groupId);
    }

    List<ShareGroup> all() {
        return new ArrayList<>(groups.values());
    }

    // ----------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat, validated, then run on the coordinator's thread; answered once its records are written. */
    CompletableFuture<ShareGroupHeartbeat.Response> heartbeat(ShareGroupHeartbeat.Request request) {
        String problem = invalid(request);
        if (problem != null) {
            return done(ShareGroupHeartbeat.Response.error(Errors.INVALID_REQUEST, problem));
        }
        Errors notHere = classicGroups.coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return done(ShareGroupHeartbeat.Response.error(notHere, null));
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
        Errors notHere = classicGroups.coordinatorError(groupId); // it may have moved while queued
        if (notHere != Errors.NONE) {
            return done(ShareGroupHeartbeat.Response.error(notHere, null));
        }
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            if (classicGroups.get(groupId) != null || consumerGroups.get(groupId) != null) {
                return done(ShareGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND,
                        "Group " + groupId + " is not a share group."));
            }
            if (request.memberEpoch() != 0) {
                return done(ShareGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND,
                        "Share group " + groupId + " not found."));
            }
            group = groups.computeIfAbsent(groupId, ShareGroup::new);
        }
        synchronized (group) {
            if (group.isDead()) { // deleted or unloaded meanwhile: the client retries
                return done(ShareGroupHeartbeat.Response.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
            }
            boolean leaving = request.memberEpoch() == ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH;
            ShareGroupHeartbeat.Response response = leaving ? leave(group, request) : heartbeat(group, request);
            if (response.error() != Errors.NONE) {
                forgetIfUnwritten(group); // a first join refused: no group was made
                return done(response);
            }
            Map<UUID, Set<Integer>> initializing = leaving ? Map.of() : startInitializing(group);
            int stateEpoch = group.groupEpoch;
            ShareGroup heartbeated = group;
            return write(group).handle((written, failure) -> {
                if (failure != null) {
                    // Nothing asked for: as Kafka's failed write leaves nothing initializing, the next heartbeat
                    // asks again (the rest of the change stays in memory, written with the next one).
                    if (!initializing.isEmpty()) {
                        thread.run(() -> notInitializing(heartbeated, initializing));
                    }
                    return ShareGroupHeartbeat.Response.error(CoordinatorWriteErrors.answerFor(failure), null);
                }
                // As Kafka's, the answer does not wait for the initialization: the partitions come with a later one.
                if (!initializing.isEmpty()) {
                    whenStateCounts(heartbeated, initializing, stateInitialization.initializeState(heartbeated.groupId,
                            initializing, stateEpoch), true);
                }
                return response;
            });
        }
    }

    /**
     * The subscribed partitions with no state, nor an initialization asked for within the retry interval, are
     * listed as initializing (Kafka's maybeCreateInitializeShareGroupStateRequest, whose record goes last in the
     * heartbeat's batch); topics deleted since are dropped from record 15. What is to be initialized, by topic id;
     * the caller holds the group's lock.
     */
    private Map<UUID, Set<Integer>> startInitializing(ShareGroup group) {
        if (group.statePartitions != null) {
            group.statePartitions.retainExisting(topicId -> topics.known(topicId).isPresent());
        }
        if (group.subscribedPartitions.isEmpty()) {
            return Map.of();
        }
        long now = clock.monotonicMs();
        // No record 15 is made before there is something to initialize, as in Kafka.
        ShareGroupStatePartitions state = group.statePartitions != null ? group.statePartitions
                : new ShareGroupStatePartitions();
        Map<UUID, ShareGroupStatePartitions.Topic> needed = state.toInitialize(group.subscribedPartitions,
                topicId -> topics.known(topicId).map(TopicMetadata::name), now, initializeRetryMs);
        if (needed.isEmpty()) {
            return Map.of();
        }
        group.statePartitions = state;
        Map<UUID, Set<Integer>> asked = new LinkedHashMap<>();
        needed.forEach((topicId, topic) -> {
            state.startInitializing(topicId, topic.name(), topic.partitions(), now);
            asked.put(topicId, topic.partitions());
        });
        return asked;
    }

    /**
     * Once the share coordinator holds the partitions' state ({@code state}: a heartbeat's InitializeShareGroupState,
     * Kafka's persisterInitialize, or AlterShareGroupOffsets' resets), on the coordinator's thread, those still
     * initializing are recorded as initialized (not a topic forgotten or deleted meanwhile) and record 15 written.
     * If it failed they leave initializing when {@code uninitializeOnFailure} (Kafka's uninitializeShareGroupState),
     * else stay there for a heartbeat to ask again after the retry interval. Completes, once record 15's write is
     * done (its failure logged), or with the state's failure.
     */
    private CompletableFuture<Void> whenStateCounts(ShareGroup group, Map<UUID, Set<Integer>> partitions,
                                                    CompletionStage<?> state, boolean uninitializeOnFailure) {
        CompletableFuture<Void> recorded = new CompletableFuture<>();
        state.whenComplete((done, failure) -> thread.run(() -> {
            CompletableFuture<Long> written = CompletableFuture.completedFuture(-1L);
            synchronized (group) {
                if (!group.isDead() && group.statePartitions != null) { // else deleted or unloaded meanwhile
                    if (failure == null) {
                        group.assignmentPending |= group.statePartitions.initializeStillInitializing(partitions);
                    } else {
                        LOG.warn("Cannot initialize the share state of group {}", group.groupId, failure);
                        if (uninitializeOnFailure) {
                            notInitializing(group, partitions);
                        }
                    }
                    written = write(group);
                }
            }
            written.whenComplete((offset, writeFailure) -> {
                if (writeFailure != null) {
                    LOG.warn("Cannot write the share state partitions of group {}", group.groupId, writeFailure);
                }
                if (failure != null) {
                    recorded.completeExceptionally(failure);
                } else {
                    recorded.complete(null);
                }
            });
        }));
        return recorded;
    }

    /** The partitions leave initializing (Kafka's uninitializeShareGroupState); takes the group's lock. */
    private static void notInitializing(ShareGroup group, Map<UUID, Set<Integer>> partitions) {
        synchronized (group) {
            if (group.statePartitions != null) {
                partitions.forEach(group.statePartitions::withoutInitializing);
            }
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
            bump |= !names.equals(member.subscribedTopicNames);
            member.subscribedTopicNames = names;
        }
        if (request.rackId() != null) {
            member.rackId = request.rackId();
        }
        member.clientId = request.clientId();
        member.clientHost = request.clientHost();
        Map<UUID, Integer> partitions = assignor.subscribedPartitions(group);
        if (!partitions.equals(group.subscribedPartitions)) {
            group.subscribedPartitions = partitions;
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
        sessions.heartbeat(group, member, timings.sessionTimeoutMs(group.groupId));
        boolean changed = joining || member.memberEpoch != epochBefore
                || !member.assignedPartitions.equals(assignedBefore);
        return new ShareGroupHeartbeat.Response(Errors.NONE, null, member.memberId, member.memberEpoch,
                timings.heartbeatIntervalMs(group.groupId), changed ? member.assignedPartitions : null);
    }

    private static Set<Integer> partitionsUpTo(int count) {
        Set<Integer> partitions = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            partitions.add(i);
        }
        return partitions;
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
     * target goes, and the group's subscribed topics become those of the members left, in that same bump (Kafka
     * writes the metadata hash without the member in its epoch record), so the next heartbeat does not count the
     * change again. That heartbeat bumps once more only if initialized partitions the group subscribes to are now in
     * no member's target (Kafka's initializedAssignmentPending): the leaver's, unless another member holds them too.
     */
    private void removeMember(ShareGroup group, ShareGroupMember member) {
        sessions.end(member);
        group.members.remove(member.memberId);
        group.targetAssignment.remove(member.memberId);
        recomputeSubscription(group);
        group.groupEpoch++;
    }

    /**
     * Recomputes what the group's members now subscribe to (a member left, or the group was replayed from the
     * offsets topic), and whether initialized partitions it subscribes to are in no member's target assignment
     * (Kafka's initializedAssignmentPending): those the next heartbeat assigns, bumping the group epoch for them.
     */
    private void recomputeSubscription(ShareGroup group) {
        group.subscribedPartitions = assignor.subscribedPartitions(group);
        group.assignmentPending = !ShareGroupAssignor.targetIsCurrent(group);
    }

    @Override
    public void sessionExpired(ShareGroup group, ShareGroupMember member, long token) {
        thread.run(() -> {
            synchronized (group) {
                if (group.isDead() || group.members.get(member.memberId) != member || member.sessionToken != token) {
                    return;
                }
                removeMember(group, member);
                write(group);
            }
        });
    }

    // -------------------------------------------------------------------------------------------- Persistence

    /** Writes what changed since the group's last write, as one batch; the caller holds its lock. */
    private CompletableFuture<Long> write(ShareGroup group) {
        Map<ByteBuffer, byte[]> now = ShareGroupRecords.snapshot(group);
        Map<ByteBuffer, byte[]> changes = ConsumerGroupRecords.diff(group.written, now);
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(-1L);
        }
        CompletableFuture<Long> written;
        try {
            written = log.writeRecords(group.groupId, changes);
        } catch (LogException e) {
            return CompletableFuture.failedFuture(e);
        }
        return written.thenApply(offset -> {
            synchronized (group) {
                group.written = now;
            }
            return offset;
        });
    }

    /**
     * DeleteGroups of a share group, as Kafka's GroupCoordinatorService: NON_EMPTY_GROUP while it has members; else
     * its record 15's topics move to deleting (Kafka's shareGroupBuildPartitionDeleteRequest), written before the
     * share coordinators are asked to delete the state of their partitions (and of those the delivery side holds), and
     * only once that counts are its records tombstoned and the group forgotten, answered once that write counts. A
     * failed write of record 15 is answered as the group's other writes; a failed state deletion keeps the group,
     * its topics deleting (so the next DeleteGroups asks for every partition of them, as Kafka's does), and answers
     * the error the share coordinator gave (Kafka's per-partition error of DeleteShareGroupState),
     * UNKNOWN_SERVER_ERROR for any other failure.
     */
    CompletableFuture<Errors> delete(String groupId) {
        return thread.compose(() -> {
            ShareGroup group = deletable(groupId);
            if (group == null) {
                return done(deletableError(groupId));
            }
            Map<UUID, Set<Integer>> partitions;
            CompletableFuture<Long> deleting;
            synchronized (group) {
                partitions = withState(group);
                if (group.statePartitions != null) {
                    group.statePartitions.startDeletingAll(topicId -> topics.known(topicId).map(TopicMetadata::name));
                }
                deleting = write(group);
            }
            return deleting.handle((offset, failure) -> failure == null ? Errors.NONE
                            : CoordinatorWriteErrors.answerFor(failure))
                    .thenCompose(written -> written != Errors.NONE ? done(written)
                            : stateDeletion.deleteState(groupId, partitions).toCompletableFuture().handle((ok, failure) ->
                                    failure == null ? Errors.NONE
                                            : Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR)))
                    .thenCompose(error -> error != Errors.NONE ? done(error)
                            : thread.compose(() -> deleteRecords(groupId)));
        });
    }

    /** The share group DeleteGroups may delete now (on the coordinator's thread), or null. */
    private ShareGroup deletable(String groupId) {
        return deletableError(groupId) == Errors.NONE ? groups.get(groupId) : null;
    }

    private Errors deletableError(String groupId) {
        Errors notHere = classicGroups.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere;
        }
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        synchronized (group) {
            return group.isDead() ? Errors.GROUP_ID_NOT_FOUND
                    : group.members.isEmpty() ? Errors.NONE : Errors.NON_EMPTY_GROUP;
        }
    }

    /**
     * The share partitions the group has state for, as Kafka's shareGroupBuildPartitionDeleteRequest lists them:
     * its initializing and initialized topics' partitions, and every partition of a topic being deleted.
     */
    private Map<UUID, Set<Integer>> withState(ShareGroup group) {
        Map<UUID, Set<Integer>> partitions = new LinkedHashMap<>();
        ShareGroupStatePartitions state = group.statePartitions;
        if (state == null) {
            return partitions;
        }
        state.initializing.forEach((topicId, topic) -> partitions.computeIfAbsent(topicId, id -> new TreeSet<>())
                .addAll(topic.partitions()));
        state.initialized.forEach((topicId, topic) -> partitions.computeIfAbsent(topicId, id -> new TreeSet<>())
                .addAll(topic.partitions()));
        state.deleting.keySet().forEach(topicId -> topics.known(topicId).ifPresent(topic ->
                partitions.computeIfAbsent(topicId, id -> new TreeSet<>()).addAll(partitionsUpTo(topic.partitions()))));
        return partitions;
    }

    /**
     * The group's state is gone: tombstones for its records, and it is forgotten. Checked again, as Kafka's
     * deleteGroups validates the group once more: a member may have joined while the state was being deleted.
     */
    private CompletableFuture<Errors> deleteRecords(String groupId) {
        ShareGroup group = deletable(groupId);
        if (group == null) {
            return done(deletableError(groupId));
        }
        CompletableFuture<Long> written;
        synchronized (group) {
            Map<ByteBuffer, byte[]> tombstones = ConsumerGroupRecords.diff(group.written, Map.of());
            try {
                written = tombstones.isEmpty() ? CompletableFuture.completedFuture(-1L)
                        : log.writeRecords(groupId, tombstones);
            } catch (LogException e) {
                return done(CoordinatorWriteErrors.answerFor(e));
            }
            forget(group);
        }
        return written.handle((offset, failure) -> failure == null ? Errors.NONE
                : CoordinatorWriteErrors.answerFor(failure));
    }

    // ------------------------------------------------------------------------------- The offsets admin APIs

    @Override
    public Status status(String groupId) {
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return Status.UNKNOWN;
        }
        synchronized (group) {
            return switch (group.state()) {
                case DEAD -> Status.UNKNOWN;
                case EMPTY -> Status.EMPTY;
                case STABLE -> Status.HAS_MEMBERS;
            };
        }
    }

    @Override
    public Map<UUID, Set<Integer>> statePartitions(String groupId) {
        ShareGroup group = groups.get(groupId);
        if (group == null) {
            return Map.of();
        }
        synchronized (group) {
            if (group.statePartitions == null) {
                return Map.of();
            }
            Map<UUID, Set<Integer>> partitions = new LinkedHashMap<>();
            group.statePartitions.initialized.forEach((topicId, topic) ->
                    partitions.put(topicId, Set.copyOf(topic.partitions())));
            return partitions;
        }
    }

    @Override
    public CompletionStage<Outcome> alterOffsets(String groupId, Map<UUID, Set<Integer>> partitions,
                                                 IntFunction<CompletionStage<Void>> reset) {
        return thread.compose(() -> {
            Errors notHere = classicGroups.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                return done(new Outcome(notHere, null));
            }
            if (groups.get(groupId) == null
                    && (classicGroups.get(groupId) != null || consumerGroups.get(groupId) != null)) {
                return done(new Outcome(Errors.GROUP_ID_NOT_FOUND, "Group " + groupId + " is not a share group."));
            }
            boolean made = groups.get(groupId) == null;
            ShareGroup group = groups.computeIfAbsent(groupId, ShareGroup::new); // if none, an empty one, as Kafka
            synchronized (group) {
                if (group.isDead()) { // deleted or unloaded meanwhile: the client retries
                    return done(new Outcome(Errors.COORDINATOR_NOT_AVAILABLE, null));
                }
                if (!group.members.isEmpty()) {
                    return done(new Outcome(Errors.NON_EMPTY_GROUP, "The group is not empty.")); // Kafka's message
                }
                // As Kafka's addInitializingTopicsRecords: assignable only once their reset counts.
                long now = clock.monotonicMs();
                Map<UUID, Set<Integer>> altered = new LinkedHashMap<>();
                partitions.forEach((topicId, numbers) -> topics.known(topicId).ifPresent(topic -> {
                    group.statePartitions().startInitializing(topicId, topic.name(), numbers, now);
                    altered.put(topicId, numbers);
                }));
                // As Kafka, the altered partitions' state is initialized with the group's epoch as its state epoch.
                int stateEpoch = group.groupEpoch;
                // Kafka's failed write leaves no group behind either. The write completes on whichever thread
                // finished it; like every change to the groups, forgetting one is made on the coordinator thread.
                return written(group).thenCompose(outcome -> {
                    if (outcome.error() == Errors.NONE) {
                        return whenStateCounts(group, altered, reset.apply(stateEpoch), false)
                                .thenApply(recorded -> Outcome.NONE);
                    }
                    return made ? thread.supply(() -> {
                        forgetIfUnwritten(group);
                        return outcome;
                    }) : done(outcome);
                });
            }
        });
    }

    @Override
    public CompletionStage<OffsetsDeletion> startOffsetsDeletion(String groupId, Set<UUID> topicIds) {
        return thread.compose(() -> {
            ShareGroup group = groups.get(groupId);
            if (group == null) {
                return done(new OffsetsDeletion(new Outcome(Errors.GROUP_ID_NOT_FOUND, null), Map.of()));
            }
            synchronized (group) {
                if (group.isDead()) {
                    return done(new OffsetsDeletion(new Outcome(Errors.GROUP_ID_NOT_FOUND, null), Map.of()));
                }
                // Here, not before: checked and written in one operation, a member cannot join in between.
                if (group.state() != ShareGroup.State.EMPTY) {
                    return done(new OffsetsDeletion(new Outcome(Errors.NON_EMPTY_GROUP, null), Map.of()));
                }
                if (group.statePartitions == null) {
                    return done(new OffsetsDeletion(Outcome.NONE, Map.of()));
                }
                Map<UUID, Set<Integer>> eligible = group.statePartitions.startDeleting(topicIds,
                        topicId -> topics.known(topicId).map(TopicMetadata::partitions));
                return written(group).thenApply(outcome -> new OffsetsDeletion(outcome,
                        outcome.error() == Errors.NONE ? eligible : Map.of()));
            }
        });
    }

    @Override
    public CompletionStage<Outcome> offsetsDeleted(String groupId, Set<UUID> topicIds) {
        return thread.compose(() -> {
            ShareGroup group = groups.get(groupId);
            if (group == null) {
                return done(new Outcome(Errors.GROUP_ID_NOT_FOUND, null));
            }
            synchronized (group) {
                if (group.isDead()) { // deleted meanwhile: writing its record 15 would make it again on replay
                    return done(new Outcome(Errors.GROUP_ID_NOT_FOUND, null));
                }
                if (group.statePartitions == null) {
                    return done(Outcome.NONE);
                }
                group.statePartitions.deleted(topicIds);
                return written(group);
            }
        });
    }

    /** Writes the group's changes, answering the admin API once they count; the caller holds its lock. */
    private CompletableFuture<Outcome> written(ShareGroup group) {
        return write(group).handle((offset, failure) -> failure == null ? Outcome.NONE
                : new Outcome(CoordinatorWriteErrors.answerFor(failure), null));
    }

    // ---------------------------------------------------------------------------------------- Loads, unloads

    /** A group replayed from the offsets topic: listed again, its members' sessions started afresh. */
    void restore(ShareGroup group) {
        synchronized (group) {
            recomputeSubscription(group);
            groups.put(group.groupId, group);
            if (group.statePartitions != null) {
                group.statePartitions.replayedAt(clock.monotonicMs());
            }
            for (ShareGroupMember member : group.members.values()) {
                sessions.heartbeat(group, member, timings.sessionTimeoutMs(group.groupId));
            }
        }
    }

    /** Forgets a group whose partition this broker no longer leads; its members' sessions end. */
    void unload(ShareGroup group) {
        synchronized (group) {
            group.members.values().forEach(sessions::end);
            forget(group);
        }
    }

    /** Forgets a group that has no members and nothing written: one made by a request that failed. */
    private void forgetIfUnwritten(ShareGroup group) {
        synchronized (group) {
            if (!group.isDead() && group.members.isEmpty() && group.written.isEmpty()) {
                forget(group);
            }
        }
    }

    /** Marks the group dead and forgets it; the caller holds its lock. */
    private void forget(ShareGroup group) {
        group.markDead();
        groups.remove(group.groupId, group);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    void bindMetersTo(MeterRegistry registry) {
        sessions.bindMetersTo(registry);
    }

    void close() throws InterruptedException {
        sessions.close();
    }
}
