package io.minibroker.broker.group;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.PurgatoryMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBufUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The classic group coordinator. It owns the groups, the "Rebalance" purgatory (joins waiting for the other
 * members) and the "Heartbeat" purgatory (session timeouts). A single node coordinates every group. In a cluster,
 * as in Kafka, a group belongs to the leader of its partition of {@code __consumer_offsets}: when this broker comes
 * to lead such a partition it replays it (on the coordinator's thread) and then serves its groups; when it stops
 * leading it, it forgets them, answering their parked joins and syncs NOT_COORDINATOR (Kafka's onResignation) so
 * that their clients find the new coordinator. Requests for a group coordinated elsewhere get NOT_COORDINATOR
 * ({@link CoordinatedPartitions}).
 *
 * <p>As Kafka's storeGroup, a group's metadata (generation, protocol, leader, members and their assignments) goes to
 * the offsets topic next to its commits when a rebalance completes, before SyncGroup is answered, when a static
 * member takes its place back under a new id, and when the group becomes Empty; DeleteGroups writes its tombstone. Loading recreates each group from its last record, Stable
 * with its members (their session timeouts started afresh), so that after a restart or a failover they carry on
 * with their generation and assignment instead of rebalancing.
 *
 * <p>Each group is guarded by its own monitor and no thread holds two group locks, so groups never deadlock
 * with each other. Purgatory callbacks never run under a purgatory lock, and the operations of one group only
 * take that group's (reentrant) lock, so calling a purgatory while holding a group lock is safe. Completing a
 * response future under a group lock only enqueues the response onto its channel's event loop. Writes to the
 * offsets topic run on the coordinator's own thread, which holds the group's lock across its checks and the
 * append; an event loop needing that group meanwhile waits for the append. In a cluster the wait for the commit's
 * replication holds neither the lock nor the thread: whoever moves the high watermark completes it, and the
 * offsets become visible then, under the lock again.
 */
public final class GroupCoordinator implements ReplicaManager.LeadershipListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);
    static final int NO_GENERATION = -1;
    /** From this OffsetCommit version, a generation of a group that does not exist is GROUP_ID_NOT_FOUND. */
    private static final int GROUP_ID_NOT_FOUND_FROM_VERSION = 9;

    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    private final OffsetStore offsets;
    /** Where groups' metadata is written: the offsets topic, next to their commits. */
    private final OffsetsTopic groupLog;
    private final CoordinatedPartitions coordinated;
    private final Purgatory<DelayedOperation> rebalancePurgatory;
    private final Purgatory<DelayedHeartbeat> heartbeatPurgatory;
    /** Commit timestamps, Empty-since times and expiry rounds, on the broker's one clock. */
    private final BrokerClock clock;
    /** The coordinator's own thread ({@link #newWriter}). */
    private final ScheduledExecutorService writer;
    /** {@code offsets.retention.minutes}, in milliseconds. */
    private final long offsetsRetentionMs;
    private final int initialRebalanceDelayMs;
    private final int minSessionTimeoutMs;
    private final int maxSessionTimeoutMs;
    private final int offsetMetadataMaxBytes;

    /**
     * A single node's coordinator: replays the offsets topic; each group comes back as its last metadata record
     * left it ({@link #restore}), and a group that only has commits is listed as Empty until a member joins.
     */
    public GroupCoordinator(BrokerConfig config, TopicRegistry topics, BrokerClock clock) {
        this(config, new OffsetsTopic(topics, config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS),
                OffsetsAppender.SINGLE_NODE, true, clock), CoordinatedPartitions.singleNode(), newWriter(), clock);
        Map<String, GroupMetadataRecord.StoredGroup> stored = new HashMap<>();
        offsets.loadAll(lastRecordOf(stored));
        stored.forEach(this::restore);
        for (String groupId : offsets.groupIds()) {
            getOrCreate(groupId);
        }
        scheduleOffsetExpiry(config);
    }

    /**
     * A cluster broker's coordinator: coordinates no group until it leads partitions of {@code __consumer_offsets}
     * ({@link #onLeading}); its commits count once replicated.
     */
    public static GroupCoordinator inCluster(BrokerConfig config, TopicRegistry topics, PartitionLeadership leadership,
                                             Purgatory<DelayedProduce> producePurgatory,
                                             Purgatory<DelayedFetch> fetchPurgatory, BrokerClock clock) {
        ScheduledExecutorService writer = newWriter();
        // A write counts when a follower's fetch moves the high watermark, on that fetch's event loop: what the
        // coordinator does then (under a group's lock) is handed back to its own thread.
        OffsetsAppender replicated = OffsetsAppender.replicated(leadership, producePurgatory, fetchPurgatory,
                topic -> TopicConfig.minInsyncReplicas(config, topics.overrides(topic).orElse(Map.of())),
                config.get(BrokerConfig.OFFSETS_COMMIT_TIMEOUT_MS), writer);
        GroupCoordinator coordinator = new GroupCoordinator(config, new OffsetsTopic(topics,
                config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS), replicated, false, clock),
                CoordinatedPartitions.cluster(), writer, clock);
        coordinator.scheduleOffsetExpiry(config);
        return coordinator;
    }

    /**
     * The coordinator's thread: writes to {@code __consumer_offsets} in order, off the event loops (an append may
     * fsync, with {@code log.flush.interval.messages=1}, which must not stall every connection of a loop).
     */
    private static ScheduledExecutorService newWriter() {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "group-coordinator");
            thread.setDaemon(true);
            return thread;
        });
    }

    private GroupCoordinator(BrokerConfig config, OffsetsTopic offsetsTopic, CoordinatedPartitions coordinated,
                             ScheduledExecutorService writer, BrokerClock clock) {
        this.writer = writer;
        this.clock = clock;
        this.rebalancePurgatory = Purgatory.builder("Rebalance").clock(clock.purgatoryClock()).build();
        this.heartbeatPurgatory = Purgatory.builder("Heartbeat").clock(clock.purgatoryClock()).build();
        this.offsetsRetentionMs = TimeUnit.MINUTES.toMillis(config.get(BrokerConfig.OFFSETS_RETENTION_MINUTES));
        this.offsets = new OffsetStore(offsetsTopic);
        this.groupLog = offsetsTopic;
        this.coordinated = coordinated;
        this.initialRebalanceDelayMs = config.get(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS);
        this.minSessionTimeoutMs = config.get(BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS);
        this.maxSessionTimeoutMs = config.get(BrokerConfig.GROUP_MAX_SESSION_TIMEOUT_MS);
        this.offsetMetadataMaxBytes = config.get(BrokerConfig.OFFSET_METADATA_MAX_BYTES);
    }

    /** Starts the expiry rounds, once the coordinator is whole (on a single node, loaded). */
    private void scheduleOffsetExpiry(BrokerConfig config) {
        long checkIntervalMs = config.get(BrokerConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS);
        clock.scheduleWithFixedDelay(writer, "Offset expiry", checkIntervalMs,
                () -> expireOffsetsOnCoordinatorThread(clock.wallClockMs()));
    }

    /** Publishes both purgatories' meters, as the broker does for its other purgatories. */
    public void bindMetersTo(MeterRegistry registry) {
        new PurgatoryMeters(rebalancePurgatory).bindTo(registry);
        new PurgatoryMeters(heartbeatPurgatory).bindTo(registry);
    }

    OffsetStore offsets() {
        return offsets;
    }

    /**
     * NONE if this broker coordinates the group now; else NOT_COORDINATOR (another broker leads its partition) or
     * COORDINATOR_LOAD_IN_PROGRESS (this broker is still loading it), as Kafka's coordinator answers.
     */
    Errors coordinatorError(String groupId) {
        return coordinated.check(offsets.partitionFor(groupId));
    }

    /** Whether some partition of this broker's groups is still loading. */
    boolean loadInProgress() {
        return coordinated.anyLoading();
    }

    // ------------------------------------------------------------------------------------ Leadership changes

    /** Leading a partition of the offsets topic: replays it on the coordinator's thread, then serves its groups. */
    @Override
    public void onLeading(TopicPartition partition, int leaderEpoch) {
        if (!partition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        coordinated.loading(partition.partition(), leaderEpoch);
        runOnCoordinatorThread(() -> load(partition.partition(), leaderEpoch));
    }

    /** No longer leading a partition of the offsets topic: its groups are forgotten here. */
    @Override
    public void onResigned(TopicPartition partition) {
        if (!partition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        coordinated.resigned(partition.partition());
        runOnCoordinatorThread(() -> unload(partition.partition()));
    }

    private void runOnCoordinatorThread(Runnable task) {
        try {
            writer.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) { // an executor would drop it without a word
                    LOG.error("A group coordinator task failed", e);
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the broker is stopping: its groups are answered NOT_COORDINATOR by close()
        }
    }

    private void load(int partition, int leaderEpoch) {
        if (!coordinated.leads(partition)) {
            return; // resigned before the load could start
        }
        unload(partition); // whatever an earlier term left (its commits are in the log too)
        try {
            Map<String, GroupMetadataRecord.StoredGroup> stored = new HashMap<>();
            offsets.loadPartition(partition, lastRecordOf(stored));
            stored.forEach(this::restore);
            for (String groupId : offsets.groupIds()) {
                if (offsets.partitionFor(groupId) == partition) {
                    getOrCreate(groupId);
                }
            }
        } catch (RuntimeException e) {
            // As Kafka 3's coordinator did: the error is logged and the partition served with what was read. Kafka 4's
            // runtime marks it FAILED instead and answers NOT_COORDINATOR until leadership moves, which leaves every
            // group of it without a coordinator for the whole leader epoch; serving what was read keeps them working.
            LOG.error("Could not read all of {}-{}; coordinating its groups from what was read", OffsetsTopic.NAME,
                    partition, e);
        } finally {
            if (coordinated.loaded(partition, leaderEpoch)) {
                LOG.info("Coordinating the groups of {}-{} (leader epoch {})", OffsetsTopic.NAME, partition,
                        leaderEpoch);
            }
        }
    }

    /** Keeps, per group, the last metadata record a replay finds; a tombstone forgets the group's. */
    private static OffsetsTopic.GroupSink lastRecordOf(Map<String, GroupMetadataRecord.StoredGroup> stored) {
        return (groupId, group) -> {
            if (group == null) {
                stored.remove(groupId);
            } else {
                stored.put(groupId, group);
            }
        };
    }

    /**
     * Recreates a group from its last metadata record, as Kafka loads it: Stable with its members (Empty without),
     * each member's session timeout started afresh, so that its next Heartbeat or OffsetCommit with the stored
     * generation succeeds here and one that never comes back expires and starts a rebalance as usual.
     */
    private void restore(String groupId, GroupMetadataRecord.StoredGroup stored) {
        ClassicGroup group = ClassicGroup.restored(groupId, stored);
        groups.put(groupId, group);
        synchronized (group) {
            group.members.values().forEach(member -> markAlive(group, member));
        }
    }

    /**
     * Forgets the groups of a partition and their commits: each group is Dead, its parked joins and syncs answered
     * NOT_COORDINATOR and its members' session timeouts ended, as Kafka's onResignation does.
     */
    private void unload(int partition) {
        for (ClassicGroup group : List.copyOf(groups.values())) {
            if (offsets.partitionFor(group.groupId) == partition) {
                synchronized (group) {
                    leaveToNewCoordinator(group);
                    groups.remove(group.groupId, group);
                }
            }
        }
        offsets.unload(index -> index == partition);
    }

    /** The group is no longer coordinated here: Dead, every waiter told NOT_COORDINATOR, every session ended. */
    private void leaveToNewCoordinator(ClassicGroup group) {
        group.transitionTo(GroupState.DEAD);
        for (GroupMember member : group.members.values()) {
            endSession(member);
            if (member.awaitingJoin != null) {
                member.awaitingJoin.response().complete(joinError(Errors.NOT_COORDINATOR, member.memberId));
                member.awaitingJoin = null;
            }
            failSync(member, Errors.NOT_COORDINATOR);
        }
        group.pendingMembers.values().forEach(this::endSession);
    }

    Optional<ClassicGroup> group(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    List<ClassicGroup> allGroups() {
        return new ArrayList<>(groups.values());
    }

    /** The group, created Empty if it does not exist yet (a first join, or a simple offset commit). */
    ClassicGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, ClassicGroup::new);
    }

    /**
     * The group, created if need be, and not one that offset expiry or DeleteGroups has just deleted: that one is
     * replaced by a fresh group. One Dead and still listed (the coordinator is closing) is returned as it is.
     */
    private ClassicGroup liveGroup(String groupId) {
        ClassicGroup group = getOrCreate(groupId);
        while (true) {
            synchronized (group) {
                if (group.state() != GroupState.DEAD) {
                    return group;
                }
            }
            ClassicGroup listed = getOrCreate(groupId);
            if (listed == group) {
                return group;
            }
            group = listed;
        }
    }

    // ---------------------------------------------------------------------------------------------- JoinGroup

    /** What a JoinGroup asks for, taken from the request. */
    record JoinRequest(String groupId, String memberId, String groupInstanceId, String clientId, String clientHost,
                       int sessionTimeoutMs, int rebalanceTimeoutMs, String protocolType,
                       LinkedHashMap<String, byte[]> protocols, short version) {
    }

    CompletableFuture<Struct> join(JoinRequest request) {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        if (request.groupId().isEmpty()) {
            return completed(joinError(Errors.INVALID_GROUP_ID, request.memberId()));
        }
        Errors notHere = coordinatorError(request.groupId());
        if (notHere != Errors.NONE) {
            return completed(joinError(notHere, request.memberId()));
        }
        if (request.sessionTimeoutMs() < minSessionTimeoutMs || request.sessionTimeoutMs() > maxSessionTimeoutMs) {
            return completed(joinError(Errors.INVALID_SESSION_TIMEOUT, request.memberId()));
        }
        boolean newMember = request.memberId().isEmpty();
        ClassicGroup group = newMember ? liveGroup(request.groupId()) : groups.get(request.groupId());
        if (group == null) {
            return completed(joinError(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
        }
        synchronized (group) {
            if (group.state() == GroupState.DEAD) {
                // Deleted meanwhile: the client finds the coordinator again and retries on a fresh group.
                return completed(joinError(Errors.COORDINATOR_NOT_AVAILABLE, request.memberId()));
            }
            if (!group.supports(request.protocolType(), request.protocols().keySet())) {
                return completed(joinError(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
            }
            String instanceId = request.groupInstanceId();
            if (instanceId != null && (newMember || group.staticMembers.containsKey(instanceId))) {
                joinStatic(group, request, response);
            } else if (newMember) {
                String memberId = request.clientId() + "-" + UUID.randomUUID();
                if (request.version() >= 4) {
                    // KIP-394: the client must come back with this id, so a retried join cannot add a ghost member.
                    GroupMember pending = new GroupMember(memberId, null, request.clientId(), request.clientHost());
                    pending.sessionTimeoutMs = request.sessionTimeoutMs();
                    group.pendingMembers.put(memberId, pending);
                    markAlive(group, pending); // its session timeout: forgotten if it does not come back in time
                    return completed(joinError(Errors.MEMBER_ID_REQUIRED, memberId));
                }
                addMemberAndRebalance(group, memberId, request, response);
            } else if (group.pendingMembers.containsKey(request.memberId())) {
                endSession(group.pendingMembers.remove(request.memberId()));
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
     * A join naming a {@code group.instance.id} (KIP-345). A known instance that comes back without its member id
     * (a restarted process) takes over the old member's place and assignment under a new member id; while the
     * group is Stable and nothing it asked for changed, that needs no rebalance. A join with the old member id
     * of a replaced instance is fenced.
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

    private void replaceStaticMember(ClassicGroup group, GroupMember old, JoinRequest request,
                                     CompletableFuture<Struct> response) {
        GroupMember replacement = new GroupMember(request.clientId() + "-" + UUID.randomUUID(),
                request.groupInstanceId(), request.clientId(), request.clientHost());
        replacement.sessionTimeoutMs = request.sessionTimeoutMs();
        replacement.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        replacement.protocols = request.protocols();
        replacement.assignment = old.assignment;
        boolean wasLeader = old.memberId.equals(group.leaderId);
        boolean sameProtocols = sameProtocols(old.protocols, request.protocols());
        fence(old);
        group.members.remove(old.memberId);
        group.members.put(replacement.memberId, replacement);
        group.staticMembers.put(replacement.groupInstanceId, replacement.memberId);
        if (wasLeader) {
            group.leaderId = replacement.memberId;
        }
        if (group.state() == GroupState.STABLE && sameProtocols && !wasLeader) {
            markAlive(group, replacement);
            replacement.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
            storeStaticReplacement(group, old, replacement, replacement.awaitingJoin);
            return;
        }
        // The leader must compute a new assignment (it may know nothing of the old one), or a rebalance is due.
        replacement.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
        rebalanceOrCheck(group);
    }

    /**
     * As Kafka, stores the group once a static member's new id took the old one's place in a Stable group, so that a
     * coordinator loading the group knows the new id, and answers the join once the write counts. Meanwhile the join
     * waits as the member's: a rebalance that starts first answers it (and stores the group when it completes), as
     * does the member's removal. If the write fails the old member takes its place back and the join gets the error
     * Kafka maps the failure to.
     */
    private void storeStaticReplacement(ClassicGroup group, GroupMember old, GroupMember replacement,
                                        GroupMember.PendingJoin join) {
        runOnCoordinatorThread(() -> {
            CompletableFuture<Long> written;
            synchronized (group) {
                if (replacement.awaitingJoin != join || group.state() != GroupState.STABLE
                        || groups.get(group.groupId) != group) {
                    return;
                }
                try {
                    written = groupLog.writeGroup(group.groupId,
                            group.toStored(group.currentAssignments(), clock.wallClockMs()));
                } catch (LogException e) {
                    restoreReplacedMember(group, old, replacement, answerForFailedWrite(e));
                    return;
                }
            }
            written.whenComplete((logOffset, failure) -> {
                synchronized (group) {
                    if (replacement.awaitingJoin != join) {
                        return;
                    }
                    if (failure == null) {
                        replacement.awaitingJoin = null;
                        join.response().complete(joinResponse(group, replacement, join.version()));
                    } else {
                        restoreReplacedMember(group, old, replacement, answerForFailedWrite(unwrap(failure)));
                    }
                }
            });
        });
    }

    /** Undoes a static member's replacement that could not be stored, failing the replacement's join. */
    private void restoreReplacedMember(ClassicGroup group, GroupMember old, GroupMember replacement, Errors error) {
        GroupMember.PendingJoin join = replacement.awaitingJoin;
        replacement.awaitingJoin = null;
        endSession(replacement);
        group.members.remove(replacement.memberId);
        group.members.put(old.memberId, old);
        group.staticMembers.put(old.groupInstanceId, old.memberId);
        markAlive(group, old);
        join.response().complete(joinError(error, ""));
    }

    /** Ends whatever the replaced member of a static instance was waiting for, and its session timeout. */
    private void fence(GroupMember old) {
        endSession(old);
        if (old.awaitingJoin != null) {
            old.awaitingJoin.response().complete(joinError(Errors.FENCED_INSTANCE_ID, old.memberId));
            old.awaitingJoin = null;
        }
        failSync(old, Errors.FENCED_INSTANCE_ID);
    }

    /** FENCED_INSTANCE_ID if the request names a static instance that now belongs to another member id. */
    static Errors checkFenced(ClassicGroup group, String groupInstanceId, String memberId) {
        if (groupInstanceId == null) {
            return Errors.NONE;
        }
        String current = group.staticMembers.get(groupInstanceId);
        return current != null && !current.equals(memberId) ? Errors.FENCED_INSTANCE_ID : Errors.NONE;
    }

    private void addMemberAndRebalance(ClassicGroup group, String memberId, JoinRequest request,
                                       CompletableFuture<Struct> response) {
        GroupMember member = new GroupMember(memberId, request.groupInstanceId(), request.clientId(),
                request.clientHost());
        member.sessionTimeoutMs = request.sessionTimeoutMs();
        member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        member.protocols = request.protocols();
        member.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
        if (group.members.isEmpty()) {
            group.protocolType = request.protocolType();
        }
        if (group.state() == GroupState.PREPARING_REBALANCE && group.generationId == 0) {
            group.newMemberAdded = true; // extends the initial delay under way, if any
        }
        group.members.put(memberId, member);
        if (member.groupInstanceId != null) {
            group.staticMembers.put(member.groupInstanceId, memberId);
        }
        if (group.leaderId == null) {
            group.leaderId = memberId;
        }
        rebalanceOrCheck(group);
    }

    private void rejoin(ClassicGroup group, GroupMember member, JoinRequest request,
                        CompletableFuture<Struct> response) {
        boolean sameProtocols = sameProtocols(member.protocols, request.protocols());
        switch (group.state()) {
            case PREPARING_REBALANCE -> {
                update(member, request, response);
                rebalanceOrCheck(group);
            }
            case COMPLETING_REBALANCE, STABLE -> {
                if (sameProtocols && !(group.state() == GroupState.STABLE && member.memberId.equals(group.leaderId))) {
                    // Nothing changed (a retried join): answer with the current generation.
                    markAlive(group, member);
                    response.complete(joinResponse(group, member, request.version()));
                } else {
                    update(member, request, response);
                    rebalanceOrCheck(group);
                }
            }
            case EMPTY, DEAD -> response.complete(joinError(Errors.UNKNOWN_MEMBER_ID, member.memberId));
        }
    }

    private static void update(GroupMember member, JoinRequest request, CompletableFuture<Struct> response) {
        member.sessionTimeoutMs = request.sessionTimeoutMs();
        member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        member.protocols = request.protocols();
        if (member.awaitingJoin != null) {
            // A second join from the same member replaces the first; the first learns it was superseded.
            member.awaitingJoin.response().complete(joinError(Errors.REBALANCE_IN_PROGRESS, member.memberId));
        }
        member.awaitingJoin = new GroupMember.PendingJoin(response, request.version());
    }

    private static boolean sameProtocols(Map<String, byte[]> current, Map<String, byte[]> requested) {
        if (!List.copyOf(current.keySet()).equals(List.copyOf(requested.keySet()))) {
            return false;
        }
        return current.entrySet().stream().allMatch(e -> Arrays.equals(e.getValue(), requested.get(e.getKey())));
    }

    /** Starts a rebalance, or if one is under way, checks whether the membership change lets it complete. */
    private void rebalanceOrCheck(ClassicGroup group) {
        if (group.state() == GroupState.PREPARING_REBALANCE) {
            rebalancePurgatory.checkAndComplete(group);
        } else {
            prepareRebalance(group);
        }
    }

    private void prepareRebalance(ClassicGroup group) {
        if (group.state() == GroupState.COMPLETING_REBALANCE) {
            // The assignment being synced is for a generation that will not be: tell the waiters to rejoin.
            for (GroupMember member : group.members.values()) {
                failSync(member, Errors.REBALANCE_IN_PROGRESS);
            }
        }
        boolean firstRebalance = group.state() == GroupState.EMPTY;
        group.transitionTo(GroupState.PREPARING_REBALANCE);
        DelayedOperation join = firstRebalance && initialRebalanceDelayMs > 0
                ? new InitialDelayedJoin(this, group, initialRebalanceDelayMs,
                        Math.max(group.rebalanceTimeoutMs() - initialRebalanceDelayMs, 0))
                : new DelayedJoin(this, group, group.rebalanceTimeoutMs());
        rebalancePurgatory.tryCompleteElseWatch(join, List.of(group));
    }

    /**
     * Kafka's rule when an initial delay runs out: if a member joined the group's first generation during it
     * and the rebalance timeout leaves budget, wait another delay (cut to the budget left); else end the join.
     */
    void initialDelayElapsed(ClassicGroup group, long remainingMs) {
        synchronized (group) {
            if (group.state() == GroupState.PREPARING_REBALANCE && group.newMemberAdded && remainingMs > 0) {
                group.newMemberAdded = false;
                rebalancePurgatory.tryCompleteElseWatch(new InitialDelayedJoin(this, group,
                        Math.min(initialRebalanceDelayMs, remainingMs),
                        Math.max(remainingMs - initialRebalanceDelayMs, 0)), List.of(group));
                return;
            }
        }
        completeJoin(group);
    }

    /** Ends the join phase: drops members that did not rejoin, starts the next generation, answers the joins. */
    void completeJoin(ClassicGroup group) {
        synchronized (group) {
            if (group.state() != GroupState.PREPARING_REBALANCE) {
                return; // deleted meanwhile
            }
            for (GroupMember member : List.copyOf(group.members.values())) {
                if (member.awaitingJoin == null) {
                    removeMember(group, member);
                }
            }
            group.generationId++;
            if (group.members.isEmpty()) {
                group.transitionTo(GroupState.EMPTY);
                group.protocolName = null;
                group.leaderId = null;
                group.emptySinceMs = clock.wallClockMs();
                storeEmpty(group, group.toStored(Map.of(), group.emptySinceMs));
                return;
            }
            if (!group.members.containsKey(group.leaderId)) {
                group.leaderId = group.members.keySet().iterator().next();
            }
            group.protocolName = group.selectProtocol();
            group.transitionTo(GroupState.COMPLETING_REBALANCE);
            for (GroupMember member : group.members.values()) {
                GroupMember.PendingJoin pending = member.awaitingJoin;
                member.awaitingJoin = null;
                member.assignment = new byte[0];
                pending.response().complete(joinResponse(group, member, pending.version()));
                markAlive(group, member);
            }
        }
    }

    private static Struct joinResponse(ClassicGroup group, GroupMember member, short version) {
        Struct response = ApiKey.JOIN_GROUP.response().newMessage()
                .set("ErrorCode", Errors.NONE.code())
                .set("GenerationId", group.generationId)
                .set("ProtocolType", group.protocolType)
                .set("ProtocolName", group.protocolName)
                .set("Leader", group.leaderId)
                .set("MemberId", member.memberId);
        if (member.memberId.equals(group.leaderId)) {
            for (GroupMember each : group.members.values()) {
                response.addElement("Members")
                        .set("MemberId", each.memberId)
                        .set("GroupInstanceId", version >= 5 ? each.groupInstanceId : null)
                        .set("Metadata", each.protocols.get(group.protocolName));
            }
        }
        return response;
    }

    static Struct joinError(Errors error, String memberId) {
        return ApiKey.JOIN_GROUP.response().newMessage()
                .set("ErrorCode", error.code())
                .set("GenerationId", NO_GENERATION)
                .set("ProtocolName", "")
                .set("Leader", "")
                .set("MemberId", memberId);
    }

    // ---------------------------------------------------------------------------------------------- SyncGroup

    CompletableFuture<Struct> sync(String groupId, int generationId, String memberId, String groupInstanceId,
                                   Map<String, byte[]> assignments) {
        CompletableFuture<Struct> response = new CompletableFuture<>();
        Errors notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            // While loading, the rebalance under way is lost: as Kafka, REBALANCE_IN_PROGRESS sends the member back
            // to JoinGroup at this coordinator (older clients do not know COORDINATOR_LOAD_IN_PROGRESS here).
            return completed(syncResponse(notHere == Errors.COORDINATOR_LOAD_IN_PROGRESS
                    ? Errors.REBALANCE_IN_PROGRESS : notHere, new byte[0]));
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return completed(syncResponse(Errors.UNKNOWN_MEMBER_ID, new byte[0]));
        }
        synchronized (group) {
            if (checkFenced(group, groupInstanceId, memberId) != Errors.NONE) {
                return completed(syncResponse(Errors.FENCED_INSTANCE_ID, new byte[0]));
            }
            GroupMember member = group.members.get(memberId);
            if (member == null || group.state() == GroupState.DEAD || group.state() == GroupState.EMPTY) {
                return completed(syncResponse(Errors.UNKNOWN_MEMBER_ID, new byte[0]));
            }
            if (generationId != group.generationId) {
                return completed(syncResponse(Errors.ILLEGAL_GENERATION, new byte[0]));
            }
            switch (group.state()) {
                case PREPARING_REBALANCE -> response.complete(syncResponse(Errors.REBALANCE_IN_PROGRESS, new byte[0]));
                case STABLE -> {
                    markAlive(group, member);
                    response.complete(syncResponse(Errors.NONE, member.assignment));
                }
                default -> {
                    failSync(member, Errors.REBALANCE_IN_PROGRESS); // a retried sync replaces the earlier one
                    member.awaitingSync = response;
                    markAlive(group, member);
                    if (memberId.equals(group.leaderId)) {
                        storeAssignment(group, group.generationId, assignments);
                    }
                }
            }
        }
        return response;
    }

    /**
     * Kafka's storeGroup: writes the group with the leader's assignment on the coordinator's thread, and only once
     * the write counts makes the group Stable and answers the members' syncs. If the write fails every member
     * waiting gets the error Kafka maps it to and the group rebalances again. A rebalance, deletion or unload
     * that came first leaves nothing to store: the generation being synced will not be.
     */
    private void storeAssignment(ClassicGroup group, int generation, Map<String, byte[]> assignments) {
        runOnCoordinatorThread(() -> {
            CompletableFuture<Long> written;
            synchronized (group) {
                if (!syncing(group, generation)) {
                    return;
                }
                try {
                    written = groupLog.writeGroup(group.groupId,
                            group.toStored(assignments, clock.wallClockMs()));
                } catch (LogException e) {
                    failAssignment(group, answerForFailedWrite(e));
                    return;
                }
            }
            written.whenComplete((logOffset, failure) -> {
                synchronized (group) {
                    if (!syncing(group, generation)) {
                        return;
                    }
                    if (failure == null) {
                        propagateAssignment(group, assignments);
                    } else {
                        failAssignment(group, answerForFailedWrite(unwrap(failure)));
                    }
                }
            });
        });
    }

    /** Whether this generation of the group, coordinated here still, is waiting for its assignment. */
    private boolean syncing(ClassicGroup group, int generation) {
        return group.state() == GroupState.COMPLETING_REBALANCE && group.generationId == generation
                && groups.get(group.groupId) == group;
    }

    private static void propagateAssignment(ClassicGroup group, Map<String, byte[]> assignments) {
        for (GroupMember each : group.members.values()) {
            each.assignment = assignments.getOrDefault(each.memberId, new byte[0]);
        }
        group.transitionTo(GroupState.STABLE);
        for (GroupMember each : group.members.values()) {
            if (each.awaitingSync != null) {
                each.awaitingSync.complete(syncResponse(Errors.NONE, each.assignment));
                each.awaitingSync = null;
            }
        }
    }

    /** Kafka's resetAndPropagateAssignmentError, then a new rebalance. */
    private void failAssignment(ClassicGroup group, Errors error) {
        for (GroupMember each : group.members.values()) {
            each.assignment = new byte[0];
            failSync(each, error);
        }
        prepareRebalance(group);
    }

    /**
     * Writes the metadata of a group left Empty, on the coordinator's thread, as Kafka stores it when a rebalance
     * ends without members; a failure is only logged, as in Kafka (the earlier record names members that, loaded
     * elsewhere, expire).
     */
    private void storeEmpty(ClassicGroup group, GroupMetadataRecord.StoredGroup empty) {
        runOnCoordinatorThread(() -> {
            if (groups.get(group.groupId) != group) {
                return; // unloaded or deleted meanwhile
            }
            try {
                groupLog.writeGroup(group.groupId, empty).whenComplete((logOffset, failure) -> {
                    if (failure != null) {
                        LOG.warn("Could not store the Empty group {}: {}", group.groupId, unwrap(failure).getMessage());
                    }
                });
            } catch (LogException e) {
                LOG.warn("Could not store the Empty group {}: {}", group.groupId, e.getMessage());
            }
        });
    }

    private static void failSync(GroupMember member, Errors error) {
        if (member.awaitingSync != null) {
            member.awaitingSync.complete(syncResponse(error, new byte[0]));
            member.awaitingSync = null;
        }
    }

    static Struct syncResponse(Errors error, byte[] assignment) {
        return ApiKey.SYNC_GROUP.response().newMessage()
                .set("ErrorCode", error.code())
                .set("Assignment", assignment);
    }

    // ---------------------------------------------------------------------------------------------- Heartbeat

    /** A heartbeat while the group is loading is answered NONE, as Kafka answers it "blindly". */
    Errors heartbeat(String groupId, int generationId, String memberId, String groupInstanceId) {
        Errors notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return notHere == Errors.COORDINATOR_LOAD_IN_PROGRESS ? Errors.NONE : notHere;
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        synchronized (group) {
            if (checkFenced(group, groupInstanceId, memberId) != Errors.NONE) {
                return Errors.FENCED_INSTANCE_ID;
            }
            GroupMember member = group.members.get(memberId);
            if (member == null || group.state() == GroupState.DEAD || group.state() == GroupState.EMPTY) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (generationId != group.generationId) {
                return Errors.ILLEGAL_GENERATION;
            }
            markAlive(group, member);
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
                    && checkFenced(group, groupInstanceId, memberId) != Errors.NONE) {
                return Errors.FENCED_INSTANCE_ID;
            }
            GroupMember member = group.members.get(groupInstanceId != null && memberId.isEmpty()
                    ? group.staticMembers.getOrDefault(groupInstanceId, "") : memberId);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            removeMemberAndRebalance(group, member);
            return Errors.NONE;
        }
    }

    // ------------------------------------------------------------------------------------------ Session expiry

    /** Refreshes the member's session: a new timeout replaces the one pending. */
    private void markAlive(ClassicGroup group, GroupMember member) {
        endSession(member);
        heartbeatPurgatory.tryCompleteElseWatch(new DelayedHeartbeat(this, group, member, member.livenessEpoch),
                List.of(member));
    }

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
                markAlive(group, member);
                return;
            }
            removeMemberAndRebalance(group, member);
        }
    }

    private void removeMemberAndRebalance(ClassicGroup group, GroupMember member) {
        removeMember(group, member);
        if (group.state() != GroupState.EMPTY && group.state() != GroupState.DEAD) {
            rebalanceOrCheck(group);
        }
    }

    /** Forgets a pending member; a join phase that waited only for it can complete now. */
    private void removePendingMember(ClassicGroup group, GroupMember pending) {
        group.pendingMembers.remove(pending.memberId);
        endSession(pending);
        if (group.state() == GroupState.PREPARING_REBALANCE) {
            rebalancePurgatory.checkAndComplete(group);
        }
    }

    /** Ends the member's session timeout: the one scheduled completes quietly. */
    private void endSession(GroupMember member) {
        member.livenessEpoch++;
        heartbeatPurgatory.checkAndComplete(member);
    }

    private void removeMember(ClassicGroup group, GroupMember member) {
        group.members.remove(member.memberId);
        if (member.groupInstanceId != null) {
            group.staticMembers.remove(member.groupInstanceId, member.memberId);
        }
        endSession(member);
        if (member.awaitingJoin != null) {
            member.awaitingJoin.response().complete(joinError(Errors.UNKNOWN_MEMBER_ID, member.memberId));
            member.awaitingJoin = null;
        }
        failSync(member, Errors.UNKNOWN_MEMBER_ID);
        if (member.memberId.equals(group.leaderId)) {
            group.leaderId = group.members.isEmpty() ? null : group.members.keySet().iterator().next();
        }
    }

    // ----------------------------------------------------------------------------------------- Offset commits

    /** What an OffsetCommit asks for: its group fields, and the offsets of the partitions of known topics. */
    record OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                        Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version) {
    }

    /**
     * Validates and stores a commit on the coordinator's thread (the append may fsync), completing with each
     * partition's error; metadata longer than {@code offset.metadata.max.bytes} refuses only its partition.
     * Validation, the one batch written for the request and the in-memory update happen under the group's lock,
     * so no DeleteGroups or rebalance can come between the check and the write.
     */
    CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(OffsetCommit commit) {
        if (commit.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(everyPartition(commit, Errors.INVALID_GROUP_ID));
        }
        Errors notHere = coordinatorError(commit.groupId());
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, notHere));
        }
        return CompletableFuture.supplyAsync(() -> commitOnCoordinatorThread(commit), writer)
                .thenCompose(written -> written);
    }

    /**
     * Validates and writes a commit under the group's lock; the future completes once the write counts (at once on
     * a single node; once replicated in a cluster), and only then are the offsets visible to OffsetFetch.
     */
    private CompletableFuture<Map<TopicPartition, Errors>> commitOnCoordinatorThread(OffsetCommit commit) {
        Errors notHere = coordinatorError(commit.groupId()); // leadership may have moved while queued
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, notHere));
        }
        ClassicGroup existing = groups.get(commit.groupId());
        if (existing == null && commit.generationId() >= 0) {
            return CompletableFuture.completedFuture(everyPartition(commit,
                    commit.version() >= GROUP_ID_NOT_FOUND_FROM_VERSION
                            ? Errors.GROUP_ID_NOT_FOUND : Errors.ILLEGAL_GENERATION));
        }
        // Without a generation the committer does not use group management (assign(), tools): it gets a group,
        // kept only if the commit stores something.
        ClassicGroup group = existing != null ? existing : liveGroup(commit.groupId());
        CompletableFuture<Map<TopicPartition, Errors>> written;
        synchronized (group) {
            written = validateAndWrite(group, commit);
        }
        return written.thenApply(errors -> {
            if (existing == null && !errors.containsValue(Errors.NONE)) {
                synchronized (group) {
                    forgetIfUnused(group);
                }
            }
            return errors;
        });
    }

    private CompletableFuture<Map<TopicPartition, Errors>> validateAndWrite(ClassicGroup group,
                                                                           OffsetCommit commit) {
        Errors refused = validateCommit(group, commit);
        if (refused != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, refused));
        }
        Map<TopicPartition, Errors> errors = new HashMap<>();
        Map<TopicPartition, OffsetStore.CommittedOffset> accepted = new LinkedHashMap<>();
        commit.offsets().forEach((partition, offset) -> {
            if (metadataTooLong(offset)) {
                errors.put(partition, Errors.OFFSET_METADATA_TOO_LARGE);
            } else {
                accepted.put(partition, offset);
                errors.put(partition, Errors.NONE);
            }
        });
        if (accepted.isEmpty()) {
            return CompletableFuture.completedFuture(errors);
        }
        long commitTimestamp = clock.wallClockMs();
        CompletableFuture<Long> written;
        try {
            written = offsets.write(commit.groupId(), accepted, commitTimestamp);
        } catch (LogException e) {
            return CompletableFuture.completedFuture(everyPartition(commit, answerForFailedWrite(e)));
        }
        return written.handle((logOffset, failure) -> {
            synchronized (group) {
                if (failure == null && group.state() != GroupState.DEAD) {
                    offsets.apply(commit.groupId(), accepted, logOffset, commitTimestamp);
                } else {
                    offsets.abandon(commit.groupId(), accepted.keySet()); // deleted or unloaded meanwhile
                }
            }
            // A failure fails the whole request, as in Kafka.
            return failure == null ? errors : everyPartition(commit, answerForFailedWrite(unwrap(failure)));
        });
    }

    private static LogException unwrap(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof LogException log ? log
                : new LogException(Errors.UNKNOWN_SERVER_ERROR, String.valueOf(cause), cause);
    }

    /**
     * Drops a group that nothing uses: no member, none pending, no offsets (one created for a simple commit that
     * stored nothing), so that ListGroups does not report it. A join that found it meanwhile sees it Dead and
     * retries on a fresh group.
     */
    private void forgetIfUnused(ClassicGroup group) {
        if (group.state() == GroupState.EMPTY && group.members.isEmpty() && group.pendingMembers.isEmpty()
                && offsets.all(group.groupId).isEmpty()) {
            group.transitionTo(GroupState.DEAD);
            groups.remove(group.groupId, group);
        }
    }

    /**
     * Kafka compares the metadata string's length in chars, not its UTF-8 bytes, with the "bytes" limit. Past
     * that, a string too long for the int16 length OffsetCommitValue stores it with is refused too (Kafka would fail
     * to serialise it), whatever {@code offset.metadata.max.bytes} allows.
     */
    private boolean metadataTooLong(OffsetStore.CommittedOffset offset) {
        return offset.metadata() != null && (offset.metadata().length() > offsetMetadataMaxBytes
                || ByteBufUtil.utf8Bytes(offset.metadata()) > Short.MAX_VALUE);
    }

    /**
     * Who may commit, by Kafka's rules: anyone without a generation while the group is Empty (a simple commit,
     * whatever member id it names); otherwise the member of the current generation, during Stable or
     * PreparingRebalance (so that eager consumers can commit before giving partitions up). A simple commit
     * naming no member while the group has members is from nobody it knows.
     */
    private Errors validateCommit(ClassicGroup group, OffsetCommit commit) {
        if (group.state() == GroupState.DEAD) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (commit.generationId() < 0 && group.state() == GroupState.EMPTY) {
            return Errors.NONE;
        }
        if (commit.generationId() < 0 && commit.memberId().isEmpty() && commit.groupInstanceId() == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (commit.groupInstanceId() != null && !group.staticMembers.containsKey(commit.groupInstanceId())) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (checkFenced(group, commit.groupInstanceId(), commit.memberId()) != Errors.NONE) {
            return Errors.FENCED_INSTANCE_ID;
        }
        GroupMember member = group.members.get(commit.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (commit.generationId() != group.generationId) {
            return Errors.ILLEGAL_GENERATION;
        }
        if (group.state() == GroupState.COMPLETING_REBALANCE) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        markAlive(group, member);
        return Errors.NONE;
    }

    /**
     * The error a client gets when the offsets topic refuses a write, commits and group metadata alike, as Kafka 4's
     * coordinator translates it (appendGroupMetadataErrorToResponseError): one that makes the client find the
     * coordinator again and retry where retrying can help.
     */
    private static Errors answerForFailedWrite(LogException failure) {
        return switch (failure.error()) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                    Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> failure.error();
        };
    }

    private static Map<TopicPartition, Errors> everyPartition(OffsetCommit commit, Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        commit.offsets().keySet().forEach(partition -> errors.put(partition, error));
        return errors;
    }

    // ------------------------------------------------------------------------------------------- DeleteGroups

    /**
     * Deletes a group that has no members, with its offsets, on the coordinator's thread; completes with the
     * error for DeleteGroups once the tombstones are replicated, as Kafka 4's coordinator answers after its write
     * commits. The tombstones are appended before the group is forgotten, under its lock: if the offsets topic
     * refuses them, the group stays whole and the client may retry. If they are appended but not replicated in
     * time, the group is gone here and the client gets the write's error; its retry finds it gone
     * (GROUP_ID_NOT_FOUND), or, should this leader have failed meanwhile, deletes it at the new one.
     */
    CompletableFuture<Errors> delete(String groupId) {
        return deletion(groupId, error -> error, group -> {
            if (!group.members.isEmpty()) {
                return Deletion.answered(Errors.NON_EMPTY_GROUP);
            }
            CompletableFuture<Long> written = offsets.deleteGroup(groupId);
            group.transitionTo(GroupState.DEAD);
            groups.remove(groupId, group);
            return new Deletion<>(Errors.NONE, written);
        });
    }


    /** An expiry round as of {@code now} (see below), queued on the coordinator's thread. */
    CompletableFuture<Integer> expireOffsets(long now) {
        return CompletableFuture.supplyAsync(() -> expireOffsetsOnCoordinatorThread(now), writer);
    }

    /**
     * Kafka's offset expiry, every {@code offsets.retention.check.interval.ms} on the coordinator's thread: commits
     * older than {@code offsets.retention.minutes} are deleted with tombstones where Kafka lets them go. An Empty
     * group's all go, timed from when it became Empty (each from its commit if that is unknown); a group that never
     * had members (simple commits) loses each from its own commit; a Stable consumer group only those of topics no
     * member subscribes to, from their commits; a commit still being written stays. A group then Empty with no
     * commit left is deleted, its metadata tombstoned, as Kafka 4's coordinator deletes it. Returns how many
     * commits expired; {@code now} is the wall-clock time commits are stamped with.
     */
    private int expireOffsetsOnCoordinatorThread(long now) {
        int expired = 0;
        for (ClassicGroup group : List.copyOf(groups.values())) {
            if (coordinatorError(group.groupId) != Errors.NONE) {
                continue;
            }
            synchronized (group) {
                if (group.state() != GroupState.DEAD) {
                    expired += expireOffsets(group, now);
                }
            }
        }
        if (expired > 0) {
            LOG.info("Removed {} expired offsets", expired);
        }
        return expired;
    }

    /**
     * Expires the group's commits, and deletes the group if that leaves it Empty without any: its metadata
     * tombstone (if members ever joined it) goes in the same batch as its commits' tombstones, so that the log never
     * holds a group whose commits are half gone. Returns how many commits expired.
     */
    private int expireOffsets(ClassicGroup group, long now) {
        List<TopicPartition> expired = expiredCommits(group, now);
        boolean emptied = group.state() == GroupState.EMPTY && group.members.isEmpty()
                && group.pendingMembers.isEmpty() && offsets.hasNoCommitsBut(group.groupId, expired);
        if (!emptied && expired.isEmpty()) {
            return 0;
        }
        CompletableFuture<Long> written;
        try {
            if (emptied && group.protocolType != null) { // members joined it once: its metadata record goes too
                written = offsets.deleteGroup(group.groupId);
            } else if (!expired.isEmpty()) {
                written = offsets.deleteCommits(group.groupId, expired);
            } else {
                written = CompletableFuture.completedFuture(-1L); // nothing of it is in the log
            }
        } catch (LogException e) {
            LOG.warn("Could not write the tombstones of {}'s expired offsets: {}", group.groupId, e.getMessage());
            return 0;
        }
        written.whenComplete((offset, failure) -> {
            if (failure != null) {
                LOG.warn("The tombstones of {}'s expired offsets were not replicated: {}", group.groupId,
                        unwrap(failure).getMessage());
            }
        });
        if (emptied) {
            group.transitionTo(GroupState.DEAD);
            groups.remove(group.groupId, group);
            LOG.info("Deleted group {}: Empty, and its offsets expired", group.groupId);
        }
        return expired.size();
    }

    /** The group's settled commits that Kafka's rules (above) let expire as of {@code now}. */
    private List<TopicPartition> expiredCommits(ClassicGroup group, long now) {
        boolean simple = group.protocolType == null || group.protocolType.isEmpty();
        Set<String> keptTopics;
        long emptySince = -1;
        if (simple) {
            keptTopics = Set.of();
        } else if (group.state() == GroupState.EMPTY) {
            keptTopics = Set.of();
            emptySince = group.emptySinceMs;
        } else if (group.state() == GroupState.STABLE && ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType)) {
            Optional<Set<String>> subscribed = group.knownSubscribedTopics();
            if (subscribed.isEmpty()) {
                return List.of();
            }
            keptTopics = subscribed.get();
        } else {
            return List.of(); // rebalancing, or members of another protocol: Kafka expires nothing then
        }
        List<TopicPartition> expired = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> commit : offsets.settledCommitTimestamps(group.groupId).entrySet()) {
            long since = emptySince >= 0 ? emptySince : commit.getValue();
            if (!keptTopics.contains(commit.getKey().topic()) && now - since >= offsetsRetentionMs) {
                expired.add(commit.getKey());
            }
        }
        return expired;
    }

    /** What OffsetDelete answers: an error for the whole group, else one per partition asked for. */
    record OffsetDeletion(Errors error, Map<TopicPartition, Errors> partitions) {
    }

    /**
     * OffsetDelete, as Kafka's coordinator answers it: GROUP_ID_NOT_FOUND for a group it does not know; for a
     * group with members, GROUP_SUBSCRIBED_TO_TOPIC for the partitions of topics its consumers subscribe to, and
     * NON_EMPTY_GROUP for the whole request if it is not a consumer group; every other partition's commit is
     * deleted with a tombstone. Written on the coordinator's thread; the answer waits for the write.
     */
    CompletableFuture<OffsetDeletion> deleteOffsets(String groupId, Collection<TopicPartition> partitions) {
        return deletion(groupId, error -> new OffsetDeletion(error, Map.of()), group -> {
            Set<String> subscribed = Set.of();
            if (!group.members.isEmpty()) {
                if (!ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType)) {
                    return Deletion.answered(new OffsetDeletion(Errors.NON_EMPTY_GROUP, Map.of()));
                }
                subscribed = group.subscribedTopics();
            }
            Map<TopicPartition, Errors> answers = new LinkedHashMap<>();
            List<TopicPartition> deleted = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                boolean consumed = subscribed.contains(partition.topic());
                answers.put(partition, consumed ? Errors.GROUP_SUBSCRIBED_TO_TOPIC : Errors.NONE);
                if (!consumed && offsets.hasCommit(groupId, partition)) {
                    deleted.add(partition);
                }
            }
            OffsetDeletion done = new OffsetDeletion(Errors.NONE, answers);
            return deleted.isEmpty() ? Deletion.answered(done) : new Deletion<>(done, offsets.deleteCommits(groupId, deleted));
        });
    }

    /** A deletion's outcome under the group's lock: its answer, once {@code written} (null: nothing) counts. */
    private record Deletion<T>(T answer, CompletableFuture<Long> written) {
        static <T> Deletion<T> answered(T answer) {
            return new Deletion<>(answer, null);
        }
    }

    /**
     * What DeleteGroups and OffsetDelete share: on the coordinator's thread, with the group coordinated here
     * (else the coordinator's error) and alive (else GROUP_ID_NOT_FOUND), {@code body} runs under the group's lock;
     * its write's failure is answered as Kafka maps it, through {@code error}, which wraps an error in the API's
     * answer.
     */
    private <T> CompletableFuture<T> deletion(String groupId, Function<Errors, T> error,
                                              Function<ClassicGroup, Deletion<T>> body) {
        Errors notHere = coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(error.apply(notHere));
        }
        return CompletableFuture.supplyAsync(() -> {
            Errors stillNotHere = coordinatorError(groupId);
            if (stillNotHere != Errors.NONE) {
                return CompletableFuture.completedFuture(error.apply(stillNotHere));
            }
            ClassicGroup group = groups.get(groupId);
            if (group == null) {
                return CompletableFuture.completedFuture(error.apply(Errors.GROUP_ID_NOT_FOUND));
            }
            Deletion<T> outcome;
            synchronized (group) {
                if (group.state() == GroupState.DEAD) {
                    return CompletableFuture.completedFuture(error.apply(Errors.GROUP_ID_NOT_FOUND));
                }
                try {
                    outcome = body.apply(group);
                } catch (LogException e) { // the offsets topic refused the write at once: nothing changed
                    return CompletableFuture.completedFuture(error.apply(answerForFailedWrite(e)));
                }
            }
            if (outcome.written() == null) {
                return CompletableFuture.completedFuture(outcome.answer());
            }
            return outcome.written().handle((offset, failure) -> failure == null ? outcome.answer()
                    : error.apply(answerForFailedWrite(unwrap(failure))));
        }, writer).thenCompose(answer -> answer);
    }

    private static CompletableFuture<Struct> completed(Struct response) {
        return CompletableFuture.completedFuture(response);
    }

    /**
     * Finishes the offset writes already queued (the logs are still open), then answers every parked JoinGroup
     * and SyncGroup with NOT_COORDINATOR, as Kafka answers them when it unloads a group (the client looks for
     * its coordinator again), then stops both purgatories. The groups are dead by then, so the joins and
     * sessions those purgatories expire on closing start no rebalance.
     */
    @Override
    public void close() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(1, TimeUnit.MINUTES);
        for (ClassicGroup group : groups.values()) {
            synchronized (group) {
                group.transitionTo(GroupState.DEAD);
                for (GroupMember member : group.members.values()) {
                    if (member.awaitingJoin != null) {
                        member.awaitingJoin.response().complete(joinError(Errors.NOT_COORDINATOR, member.memberId));
                        member.awaitingJoin = null;
                    }
                    failSync(member, Errors.NOT_COORDINATOR);
                }
            }
        }
        rebalancePurgatory.close();
        heartbeatPurgatory.close();
    }
}
