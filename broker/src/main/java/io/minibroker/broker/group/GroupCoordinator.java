package io.minibroker.broker.group;

import io.minibroker.broker.produce.CoordinatorAppender;
import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.broker.share.ShareStateDeletion;
import io.minibroker.broker.share.ShareStateInitialization;
import io.minibroker.broker.sharegroup.ShareGroupTimings;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopicCreation;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionCompletionListener;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The group coordinator, as the handlers see it (Kafka's GroupCoordinatorService): it wires its parts and hands
 * each request to the one whose job it is. {@link ConsumerGroupCoordinator} runs KIP-848 consumer groups
 * (ConsumerGroupHeartbeat, {@link ConsumerGroups}), {@link ShareGroupCoordinator} KIP-932 share groups' membership
 * (ShareGroupHeartbeat, {@link ShareGroups}) with {@link ShareGroupStateInitializer} (their share partitions' state
 * initialized before they are assigned), {@link ShareGroupDeletion} their DeleteGroups and
 * {@link ShareGroupOffsetsAdmin} their part of the share-group offsets admin APIs. {@link ClassicGroupCoordinator} runs the classic groups'
 * membership and rebalances (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, session expiry, the "Rebalance" and
 * "Heartbeat" purgatories), writing groups' metadata through {@link GroupMetadataWriter}; {@link OffsetMetadataManager} their
 * offsets (OffsetCommit, TxnOffsetCommit, DeleteGroups, OffsetDelete, expiry; a transaction's marker on an offsets
 * partition ends its pending offsets, {@link #onTransactionCompleted}; a deleted topic's commits go,
 * {@link #onTopicsDeleted}) over the {@link OffsetStore} OffsetFetch reads;
 * {@link GroupLoader} replays {@code __consumer_offsets} on start or on leading one of its partitions, and forgets a
 * partition's groups on resigning it; {@link ClassicGroups} lists the groups and says which this broker coordinates;
 * {@link CoordinatorThread} is the coordinator's own thread. A single node coordinates every group; in a cluster a
 * group belongs to the leader of its partition of {@code __consumer_offsets}, and requests for a group coordinated
 * elsewhere get NOT_COORDINATOR.
 *
 * <p>Threading and locking, for every part: each group is guarded by its own monitor and no thread holds two group
 * locks, so groups never deadlock with each other. Purgatory callbacks never run under a purgatory lock, and the
 * operations of one group only take that group's (reentrant) lock, so calling a purgatory while holding a group lock
 * is safe. Completing a response future under a group lock only enqueues the response onto its channel's event
 * loop. Writes to the offsets topic, partition loads and the offset expiry round run on the coordinator's own
 * thread, which holds the group's lock across its checks and the append; an event loop needing that group meanwhile
 * waits for the append. In a cluster the wait for a write's replication holds neither the lock nor the thread:
 * whoever moves the high watermark completes it, and what it changes becomes visible then, under the lock again.
 */
public final class GroupCoordinator implements ReplicaManager.LeadershipListener, TransactionCompletionListener,
        TopicDeletionListener, AutoCloseable {

    private final ClassicGroups groups;
    private final OffsetStore offsets;
    private final CoordinatorThread thread;
    private final ClassicGroupCoordinator membership;
    private final OffsetMetadataManager offsetManager;
    private final GroupLoader loader;
    private final ConsumerGroups consumerGroups;
    private final ConsumerGroupCoordinator consumers;
    private final ShareGroups shareGroups;
    private final ShareGroupStateInitializer shareStates;
    private final ShareGroupCoordinator shares;
    private final ShareGroupDeletion shareDeletion;
    private final ShareGroupOffsetsAdmin shareOffsets;
    private final ClassicMembersOfConsumerGroups classicMembers;
    private final StreamsGroups streamsGroups;
    private final GroupTypes types;
    private final StreamsGroupCoordinator streams;
    /** The subscribed topics' metadata hashes, for the consumer, share and streams groups alike. */
    private final TopicHashCache topicHashes;

    /**
     * A single node's coordinator: replays the offsets topic; each group comes back as its last metadata record
     * left it, and a group that only has commits is listed as Empty until a member joins.
     */
    public GroupCoordinator(BrokerConfig config, TopicRegistry topics, BrokerClock clock) {
        this(config, topics, clock, ShareGroupTimings.of(config), ConsumerGroupTimings.of(config));
    }

    /**
     * As above, with share groups' heartbeat intervals and session timeouts from {@code shareTimings}, consumer
     * groups' from {@code consumerTimings}.
     */
    public GroupCoordinator(BrokerConfig config, TopicRegistry topics, BrokerClock clock,
                            ShareGroupTimings shareTimings, ConsumerGroupTimings consumerTimings) {
        this(config, topics, new CoordinatorThread(), CoordinatedPartitions.singleNode(), clock,
                thread -> new OffsetsTopic(topics, config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS),
                        CoordinatorAppender.SINGLE_NODE, true, clock),
                ReplicaRacks.singleNode(config.get(BrokerConfig.BROKER_RACK)), shareTimings, consumerTimings);
        loader.loadAll();
        offsetManager.scheduleExpiry(config);
    }

    /**
     * The partition of {@code __consumer_offsets} whose leader coordinates {@code groupId} in a cluster of
     * {@code partitions} offsets partitions (Kafka's {@code partitionFor}): what moving a group's coordinator moves.
     */
    public static int offsetsPartitionFor(String groupId, int partitions) {
        return InternalTopics.partitionFor(groupId, partitions);
    }

    /**
     * A cluster broker's coordinator: coordinates no group until it leads partitions of {@code __consumer_offsets}
     * ({@link #onLeading}); its commits count once replicated. Share and consumer groups' heartbeat intervals and
     * session timeouts come from {@code shareTimings} and {@code consumerTimings}: the group configs as the
     * controller's image has them. The partitions' replicas and the brokers' racks, which groups' metadata hashes
     * cover, come from {@code image}: the latest image this broker applied.
     */
    public static GroupCoordinator inCluster(BrokerConfig config, TopicRegistry topics, PartitionLeadership leadership,
                                             Supplier<ClusterMetadata> image,
                                             Purgatory<DelayedProduce> producePurgatory,
                                             Purgatory<DelayedFetch> fetchPurgatory, BrokerClock clock,
                                             ShareGroupTimings shareTimings,
                                             ConsumerGroupTimings consumerTimings) {
        GroupCoordinator coordinator = new GroupCoordinator(config, topics, new CoordinatorThread(),
                CoordinatedPartitions.cluster(), clock, thread -> {
                    // A write counts when a follower's fetch moves the high watermark, on that fetch's event loop:
                    // what the coordinator does then (under a group's lock) is handed back to its own thread.
                    CoordinatorAppender replicated = CoordinatorAppender.replicated(leadership, producePurgatory,
                            fetchPurgatory,
                            topics::minInsyncReplicas,
                            config.get(BrokerConfig.OFFSETS_COMMIT_TIMEOUT_MS), thread.executor());
                    return new OffsetsTopic(topics, config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS),
                            replicated, false, clock);
                }, ReplicaRacks.fromImage(image), shareTimings, consumerTimings);
        coordinator.offsetManager.scheduleExpiry(config);
        return coordinator;
    }

    private GroupCoordinator(BrokerConfig config, TopicRegistry topics, CoordinatorThread thread,
                             CoordinatedPartitions coordinated, BrokerClock clock,
                             Function<CoordinatorThread, OffsetsTopic> offsetsTopic, ReplicaRacks racks,
                             ShareGroupTimings shareTimings, ConsumerGroupTimings consumerTimings) {
        OffsetsTopic log = offsetsTopic.apply(thread); // in a cluster, its writes complete on the thread
        this.thread = thread;
        this.offsets = new OffsetStore(log);
        this.topicHashes = new TopicHashCache(topics::known, racks);
        this.groups = new ClassicGroups(coordinated, offsets::partitionFor);
        this.membership = new ClassicGroupCoordinator(config, groups,
                new GroupMetadataWriter(groups, log, thread, clock), clock);
        this.consumerGroups = new ConsumerGroups();
        this.streamsGroups = new StreamsGroups(log);
        this.offsetManager = new OffsetMetadataManager(config, groups, consumerGroups, streamsGroups, offsets, membership.sessions(),
                thread, clock);
        this.consumers = new ConsumerGroupCoordinator(config, consumerGroups, groups, log, thread, topics, topicHashes,
                clock, membership, consumerTimings);
        this.classicMembers = new ClassicMembersOfConsumerGroups(consumers);
        this.shareGroups = new ShareGroups(groups, log);
        this.types = new GroupTypes(groups, consumerGroups, shareGroups, streamsGroups);
        this.shareStates = new ShareGroupStateInitializer(config, shareGroups, thread, topics, clock);
        this.shares = new ShareGroupCoordinator(config, shareGroups, types, thread, topics, topicHashes, clock,
                shareTimings, shareStates);
        this.shareDeletion = new ShareGroupDeletion(shareGroups, thread, topics);
        this.shareOffsets = new ShareGroupOffsetsAdmin(shareGroups, types, thread, topics, shareStates);
        this.streams = new StreamsGroupCoordinator(config, streamsGroups, groups, membership, types, thread, topics,
                topicHashes, clock);
        this.loader = new GroupLoader(groups, offsets, membership, thread, consumerGroups, consumers, shareGroups,
                shares, streamsGroups, streams);
    }

    /** Publishes both purgatories' meters, as the broker does for its other purgatories. */
    public void bindMetersTo(MeterRegistry registry) {
        membership.bindMetersTo(registry);
        consumers.bindMetersTo(registry);
        shares.bindMetersTo(registry);
        streams.bindMetersTo(registry);
    }

    // ------------------------------------------------------------------------- Consumer groups (KIP-848)

    CompletableFuture<ConsumerGroupHeartbeat.Response> consumerGroupHeartbeat(ConsumerGroupHeartbeat.Request request) {
        // A classic group's id is the consumer coordinator's to judge: the group may be upgraded to a consumer group.
        String anotherType = types.notA(GroupType.CONSUMER, request.groupId());
        if (anotherType != null && !types.holds(GroupType.CLASSIC, request.groupId())) {
            return CompletableFuture.completedFuture(
                    ConsumerGroupHeartbeat.Response.error(Errors.GROUP_ID_NOT_FOUND, anotherType));
        }
        return consumers.heartbeat(request);
    }

    // ---------------------------------------------------------------------------------- Share groups (KIP-932)

    CompletableFuture<ShareGroupHeartbeat.Response> shareGroupHeartbeat(ShareGroupHeartbeat.Request request) {
        return shares.heartbeat(request);
    }

    // ------------------------------------------------------------------------------- Streams groups (KIP-1071)

    CompletableFuture<StreamsGroupHeartbeat.Response> streamsGroupHeartbeat(StreamsGroupHeartbeat.Request request) {
        return streams.heartbeat(request);
    }

    /** The streams group of that id, or null if there is none. */
    StreamsGroup streamsGroup(String groupId) {
        return streamsGroups.get(groupId);
    }

    List<StreamsGroup> allStreamsGroups() {
        return streamsGroups.all();
    }

    /** Where streams groups' own configs ({@code streams.*}) come from: the broker's group configs. */
    public void readStreamsGroupSettingsFrom(StreamsGroupSettings settings) {
        streams.readSettingsFrom(settings);
    }

    /** How a streams group's missing internal topics are created: here on one node, by the controller in a cluster. */
    public void createStreamsInternalTopicsWith(InternalTopicCreation creation) {
        streams.createInternalTopicsWith(creation);
    }

    /**
     * Kafka's message (with GROUP_ID_NOT_FOUND) for an id no group of type {@code wanted} has: "is not a … group." if
     * one of another type holds it, else "not found.".
     */
    String notFound(GroupType wanted, String groupId) {
        return types.notFound(wanted, groupId);
    }

    /** The share group of that id, or null if there is none. */
    ShareGroup shareGroup(String groupId) {
        return shareGroups.get(groupId);
    }

    List<ShareGroup> allShareGroups() {
        return shareGroups.all();
    }

    /**
     * What the share groups' delivery side asks of their membership: whether a group is known here and has
     * members, and the coordinator's part of altering and deleting its offsets (the share-group offsets admin APIs).
     */
    public ShareGroupMembership shareGroupMembership() {
        return shareOffsets;
    }

    /** The consumer-protocol group of that id, or null if there is none. */
    ConsumerGroup consumerGroup(String groupId) {
        return consumerGroups.get(groupId);
    }

    /** The name of the assignor the consumer group's target is computed with; the caller holds its lock. */
    String preferredAssignor(ConsumerGroup group) {
        return consumers.targets().preferredAssignor(group).name();
    }

    /**
     * NONE unless the group is a consumer or streams group and the fetch is not from one of its members at its epoch.
     */
    Errors validateOffsetFetch(String groupId, String memberId, int memberEpoch) {
        StreamsGroup streamsGroup = streamsGroups.get(groupId);
        if (streamsGroup != null) {
            synchronized (streamsGroup) {
                return streamsGroup.validateOffsetFetch(memberId, memberEpoch);
            }
        }
        ConsumerGroup group = consumerGroups.get(groupId);
        if (group == null) {
            return Errors.NONE;
        }
        synchronized (group) {
            return group.validateOffsetFetch(memberId, memberEpoch);
        }
    }

    /** How DeleteGroups of a share group deletes its share-partition state (the delivery side's). */
    public void deleteShareStateWith(ShareStateDeletion deletion) {
        shareDeletion.deleteStateWith(deletion);
    }

    /** How a share group's heartbeat initializes its share partitions' state before assigning them. */
    public void initializeShareStateWith(ShareStateInitialization initialization) {
        shareStates.initializeStateWith(initialization);
    }

    /**
     * DeleteGroups: a consumer group is deleted by its own coordinator (its records and its commits), a classic
     * group by the offset manager.
     */
    CompletableFuture<Errors> delete(String groupId) {
        if (shareGroups.get(groupId) != null) {
            return shareDeletion.delete(groupId);
        }
        if (streamsGroups.get(groupId) != null) {
            return streams.delete(groupId, offsets);
        }
        return consumerGroups.get(groupId) != null ? consumers.delete(groupId, offsets)
                : offsetManager.delete(groupId);
    }

    List<ConsumerGroup> allConsumerGroups() {
        return consumerGroups.all();
    }

    OffsetStore offsets() {
        return offsets;
    }

    /**
     * The partition of {@code __consumer_offsets} a group's offsets go to: what AddOffsetsToTxn adds to a
     * transaction, so that its marker lands where the group's transactional commits are.
     */
    public int offsetsPartitionFor(String groupId) {
        return offsets.partitionFor(groupId);
    }

    /**
     * NONE if this broker coordinates the group now; else NOT_COORDINATOR (another broker leads its partition) or
     * COORDINATOR_LOAD_IN_PROGRESS (this broker is still loading it), as Kafka's coordinator answers.
     */
    Errors coordinatorError(String groupId) {
        return groups.coordinatorError(groupId);
    }

    /** Whether some partition of this broker's groups is still loading. */
    boolean loadInProgress() {
        return groups.coordinated().anyLoading();
    }

    Optional<ClassicGroup> group(String groupId) {
        return groups.find(groupId);
    }

    List<ClassicGroup> allGroups() {
        return groups.all();
    }

    /** The group, created Empty if it does not exist yet (a first join, or a simple offset commit). */
    ClassicGroup getOrCreate(String groupId) {
        return groups.getOrCreate(groupId);
    }

    // ------------------------------------------------------------------------------------ Leadership changes

    @Override
    public void onLeading(TopicPartition partition, int leaderEpoch) {
        loader.onLeading(partition, leaderEpoch);
    }

    @Override
    public void onResigned(TopicPartition partition) {
        loader.onResigned(partition);
    }

    // ------------------------------------------------------------------------------------------- Membership

    /**
     * A classic JoinGroup for an id that names a consumer-protocol group: an empty one becomes a classic group, as
     * Kafka converts it; one with members takes the member in through the classic protocol, a mixed group
     * ({@link ClassicMembersOfConsumerGroups}). SyncGroup, Heartbeat and LeaveGroup of such a member go there too.
     * An empty streams group becomes a classic group too; one with members, or a share group, refuses the join.
     */
    CompletableFuture<Struct> join(JoinRequest request) {
        if (shareGroups.get(request.groupId()) != null) { // Kafka: not one classic members may join
            return CompletableFuture.completedFuture(GroupResponses.joinRefused(Errors.INCONSISTENT_GROUP_PROTOCOL));
        }
        if (streamsGroups.get(request.groupId()) != null) {
            return streams.yieldToClassic(request.groupId()).thenCompose(error -> error == Errors.NONE
                    ? membership.join(request)
                    : CompletableFuture.completedFuture(GroupResponses.joinRefused(error)));
        }
        if (consumerGroups.get(request.groupId()) != null) {
            return classicMembers.join(request).thenCompose(answer -> answer != null
                    ? CompletableFuture.completedFuture(answer) : membership.join(request));
        }
        return membership.join(request);
    }

    CompletableFuture<Struct> sync(SyncRequest request) {
        if (request.groupId().isEmpty()) {
            return CompletableFuture.completedFuture(GroupResponses.syncError(Errors.INVALID_GROUP_ID));
        }
        ConsumerGroup group = consumerGroups.get(request.groupId());
        if (group != null) {
            return CompletableFuture.completedFuture(classicMembers.sync(group, request));
        }
        return membership.sync(request);
    }

    /** As Kafka's GroupCoordinatorService, an empty group id is INVALID_GROUP_ID (the JoinGroup's check too). */
    Errors heartbeat(String groupId, int generationId, String memberId, String groupInstanceId) {
        if (groupId.isEmpty()) {
            return Errors.INVALID_GROUP_ID;
        }
        ConsumerGroup group = consumerGroups.get(groupId);
        if (group != null) {
            return classicMembers.heartbeat(group, generationId, memberId, groupInstanceId);
        }
        return membership.heartbeat(groupId, generationId, memberId, groupInstanceId);
    }

    /**
     * A LeaveGroup's members, each answered with its error: a classic group's at once, the classic-protocol members
     * of a consumer group once their removals are written, in one write (the stage fails with the write's failure).
     */
    CompletableFuture<List<Errors>> leave(String groupId, List<LeavingMember> members) {
        ConsumerGroup group = consumerGroups.get(groupId);
        if (group != null) {
            return classicMembers.leave(group, members);
        }
        return CompletableFuture.completedFuture(members.stream()
                .map(member -> membership.leave(groupId, member.memberId(), member.groupInstanceId())).toList());
    }

    // ---------------------------------------------------------------------------------------------- Offsets

    CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(OffsetCommit commit) {
        return offsetManager.commitOffsets(commit);
    }

    /**
     * Starts a verification of a TxnOffsetCommit's producer on the group's partition of {@code __consumer_offsets},
     * before its transaction coordinator is asked whether that partition is in the transaction (Kafka's
     * CoordinatorRuntime.scheduleTransactionalWriteOperation starts it so): the guard the commit's write presents
     * ({@link OffsetCommit.Transaction}), so that a transaction ended between the coordinator's answer and the write
     * refuses the write instead of leaving a transaction open on the partition that no coordinator knows of (its last
     * stable offset stuck, the group's offsets pending for ever). {@link VerificationGuard#SENTINEL} if the producer's
     * transaction is open on the partition at this epoch already: nothing needs asking. Not asked with
     * {@code transaction.partition.verification.enable=false} ({@link TxnOffsetCommitHandler}), whose write is not
     * checked, as Kafka's log does not check it. On the coordinator's thread, as a single node's first write there
     * may create the topic.
     *
     * @param supportsEpochBump the producer uses transaction version 2 (TxnOffsetCommit v5+)
     * @return the guard; failed with a LogException: the group's coordinator error (NOT_COORDINATOR,
     *     COORDINATOR_LOAD_IN_PROGRESS) if this broker does not coordinate it now, INVALID_PRODUCER_EPOCH for an epoch
     *     older than the producer's on the partition, or the partition's error
     */
    CompletableFuture<VerificationGuard> startTransactionVerification(String groupId, long producerId,
                                                                      short producerEpoch, boolean supportsEpochBump) {
        return thread.supply(() -> {
            Errors notHere = groups.coordinatorError(groupId);
            if (notHere != Errors.NONE) {
                throw new LogException(notHere, "group " + groupId + " is not coordinated here now");
            }
            return offsets.startTransactionVerification(groupId, producerId, producerEpoch, supportsEpochBump);
        });
    }

    /** A TxnOffsetCommit: validated and written as an OffsetCommit is, its offsets pending until the marker. */
    CompletableFuture<Map<TopicPartition, Errors>> commitTransactionalOffsets(OffsetCommit commit) {
        return offsetManager.commitOffsets(commit);
    }

    /**
     * A transaction's marker has been appended to a partition of {@code __consumer_offsets}: the offsets its producer
     * committed in it for that partition's groups become the committed ones (COMMIT) or are dropped (ABORT), at
     * once, so that an OffsetFetch after the EndTxn sees them. While the partition is still loading, the marker
     * is applied after the load (which may have replayed it already: applying it again finds nothing pending); a
     * partition this broker does not coordinate has nothing of it to change.
     */
    @Override
    public void onTransactionCompleted(TopicPartition offsetsPartition, long producerId, TransactionResult result) {
        if (!offsetsPartition.topic().equals(OffsetsTopic.NAME)) {
            return;
        }
        int index = offsetsPartition.partition();
        Errors coordinated = groups.coordinated().check(index);
        if (coordinated == Errors.NONE) {
            offsets.completeTransaction(index, producerId, result);
        } else if (coordinated == Errors.COORDINATOR_LOAD_IN_PROGRESS) {
            thread.run(() -> {
                if (groups.coordinated().check(index) == Errors.NONE) {
                    offsets.completeTransaction(index, producerId, result);
                }
            });
        }
    }


    /** An empty group id is INVALID_GROUP_ID for the whole request, as Kafka's GroupCoordinatorService answers it. */
    CompletableFuture<OffsetDeletion> deleteOffsets(String groupId, Collection<TopicPartition> partitions) {
        if (groupId.isEmpty()) {
            return CompletableFuture.completedFuture(new OffsetDeletion(Errors.INVALID_GROUP_ID, Map.of()));
        }
        return offsetManager.deleteOffsets(groupId, partitions);
    }

    /**
     * Topics were deleted: every group's commits of their partitions go, with tombstones in the partitions of
     * {@code __consumer_offsets} this broker coordinates, and every share group's record 15 forgets them, as Kafka's
     * GroupCoordinatorService.onMetadataUpdate has its shards do (onTopicsDeleted, maybeCleanupShareGroupState), and
     * their hashes are forgotten; queued on the coordinator's thread, so the caller (a single node's {@code disk-io}, a
     * cluster broker's image thread) does not wait.
     */
    @Override
    public void onTopicsDeleted(Collection<TopicMetadata> deleted) {
        thread.run(() -> topicHashes.forget(deleted));
        Map<String, UUID> byName = new HashMap<>();
        deleted.forEach(topic -> byName.put(topic.name(), topic.id())); // a name twice: the later deletion's id
        offsetManager.onTopicsDeleted(byName);
        shareStates.onTopicsDeleted(deleted.stream().map(TopicMetadata::id).collect(Collectors.toSet()));
    }

    /** {@link #onTopicsDeleted}'s share-group part, by topic id: completes with how many groups it wrote. */
    CompletableFuture<Integer> forgetDeletedTopicsInShareGroups(Set<UUID> topicIds) {
        return shareStates.forgetDeletedTopics(topicIds);
    }

    /**
     * {@link #onTopicsDeleted}, by name and id: completes with how many commits went, once their tombstones count.
     */
    CompletableFuture<Integer> deleteCommitsOfTopics(Map<String, UUID> topics) {
        return offsetManager.deleteCommitsOfTopics(topics);
    }

    CompletableFuture<Integer> expireOffsets(long now) {
        return offsetManager.expireOffsets(now);
    }

    /**
     * Finishes the offset writes already queued (the logs are still open), then answers every parked JoinGroup
     * and SyncGroup with NOT_COORDINATOR, as Kafka answers them when it unloads a group (the client looks for
     * its coordinator again), then stops both purgatories. The groups are dead by then, so the joins and
     * sessions those purgatories expire on closing start no rebalance.
     */
    @Override
    public void close() throws InterruptedException {
        thread.close();
        membership.close();
        consumers.close();
        shares.close();
        streams.close();
    }
}
