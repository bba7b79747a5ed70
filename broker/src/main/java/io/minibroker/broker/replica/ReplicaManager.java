package io.minibroker.broker.replica;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.admin.DelayedDeleteRecords;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.ReplicaManagerMeters;
import io.minibroker.broker.metrics.ReplicationQuotaMeters;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.AlterPartitionRequestView;
import io.minibroker.protocol.message.view.AlterPartitionResponseView;
import io.minibroker.purgatory.Purgatory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The partitions this broker hosts in a cluster and its role in each, from the controller's image: it leads the
 * partitions whose leader is this node and follows the others (a {@link ReplicaFetchers} thread per leader copies
 * their logs). As a leader it learns each follower's log end from where the follower fetches, and keeps the high
 * watermark at the least log end over the ISR; when that moves, the acks=all produces and consumer fetches parked
 * on the partition are completed (checkAndComplete). A partition with one replica keeps the single-node rule:
 * its high watermark is its log end.
 *
 * <p>The leader owns its partitions' ISR: on its {@code isr-changes} thread, every half
 * {@code replica.lag.time.max.ms}, it asks the controller (AlterPartition) to drop the followers not caught up for
 * that long, and after a follower's fetch reaches the high watermark, to take it back. The ISR the controller
 * answers is the one it uses (the image's is taken when it becomes leader, and when the controller removed fenced
 * brokers from it: {@link LeaderState#takeFencingShrink}).
 *
 * <p>A replicated partition's high watermark outlives a restart in {@code replication-offset-checkpoint}
 * ({@link HighWatermarkCheckpointer}): when the first image after a start hosts it, as leader or follower, it
 * starts there (capped at the log end), as Kafka's Partition does, so a restarted leader serves its committed
 * records at once and never the records its followers may not have.
 */
public final class ReplicaManager implements PartitionLeadership, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);
    /** AlterPartition v3: the new ISR as broker ids with each broker's epoch (KIP-903). */
    private static final short ALTER_PARTITION_VERSION = 3;
    /** The leader id of a partition whose in-sync replicas are all gone. */
    private static final int NO_LEADER = -1;
    /**
     * AlterPartition refusals Kafka's Partition.handleAlterPartitionError does not retry: the leader waits for
     * metadata that tells it what changed. OPERATION_NOT_ATTEMPTED and INELIGIBLE_REPLICA drop the change at once
     * (back to the committed ISR); any other refusal, a refusal of the whole request (NOT_CONTROLLER,
     * STALE_BROKER_EPOCH, ...) and a request that got no answer send the same change again
     * {@value #ALTER_PARTITION_RETRY_BACKOFF_MS} ms later.
     */
    private static final Set<Errors> AWAIT_METADATA_AFTER = EnumSet.of(Errors.UNKNOWN_TOPIC_OR_PARTITION,
            Errors.UNKNOWN_TOPIC_ID, Errors.FENCED_LEADER_EPOCH, Errors.INVALID_UPDATE_VERSION, Errors.INVALID_REQUEST,
            Errors.NEW_LEADER_ELECTED);
    private static final Set<Errors> DROPPED_AFTER = EnumSet.of(Errors.OPERATION_NOT_ATTEMPTED,
            Errors.INELIGIBLE_REPLICA);
    /**
     * How long a change the controller did not take is held before it is sent again: Kafka's
     * DefaultAlterPartitionManager resends after a top-level error 50 ms later (and its channel to the controller
     * resends what got no answer). Kafka's Partition resubmits a partition's own retriable refusal without a pause;
     * here it waits too, so that a controller failing to save (KAFKA_STORAGE_ERROR) is not asked in a tight loop.
     */
    private static final long ALTER_PARTITION_RETRY_BACKOFF_MS = 50;

    /** A hosted partition as the image has it, its log here, and (when led here) what the leader knows. */
    private record HostedPartition(TopicImage topic, PartitionImage image, PartitionLog log, LeaderState leader) {
    }

    private final int nodeId;
    private final TopicRegistry topics;
    private final Purgatory<DelayedProduce> producePurgatory;
    private final Purgatory<DelayedFetch> fetchPurgatory;
    private final Purgatory<DelayedDeleteRecords> deleteRecordsPurgatory;
    /** The live brokers of the latest image: DeleteRecords waits for the log starts of these followers only. */
    private volatile Set<Integer> liveBrokers = Set.of();
    private final ReplicaFetchers fetchers;
    private final NodeChannel controller;
    private final long replicaLagTimeMaxMs;
    /**
     * The longest an image can take from the controller to {@link #apply}: the connect and the read of its
     * request, each bounded by the controller channels' timeout ({@code broker.session.timeout.ms}).
     */
    private final long imageMaxAgeMs;
    private final BrokerClock clock;
    /** This broker's epoch from its registration, -1 before it has one. */
    private final LongSupplier brokerEpoch;
    /** {@code replica.selector.class}: where consumers' fetches are pointed ({@link #preferredReadReplica}). */
    private final ReplicaSelector selector;
    /** KIP-73's throttle on what this broker sends followers of the partitions it leads. */
    private final ReplicationQuota leaderQuota;
    private final ScheduledExecutorService isrChanges =
            Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "isr-changes"));
    private volatile Map<TopicPartition, HostedPartition> hosted = Map.of();
    /** The latest image, for the leaders of partitions not hosted here too ({@link #currentLeader}). */
    private volatile ClusterMetadata image = ClusterMetadata.empty();
    /** Followers a test holds out of a partition's ISR while this broker leads it, whatever their fetches say. */
    private final Map<TopicPartition, Set<Integer>> heldOutOfIsr = new ConcurrentHashMap<>();
    /** Notified when an image's roles are taken: a test's ISR control may wait for a leadership it just moved here. */
    private final Object imageApplied = new Object();
    /** The ISR controls wait for leadership in the test's real time, even when the broker runs on a manual clock. */
    private static final BrokerClock REAL_TIME = BrokerClock.system();
    /**
     * How long an ISR control waits for an image making this broker leader: images reach the brokers within
     * milliseconds (each parks a fetch for the next change at the controller), so this only bounds a wrong guess.
     */
    private static final long LEADERSHIP_WAIT_MS = 2_000;
    /** The checkpointed high watermarks of the partitions not hosted since the start; each is used once. */
    private final Map<TopicPartition, Long> checkpointedHighWatermarks;
    private final HighWatermarkCheckpointer highWatermarkCheckpointer;
    private volatile LeadershipListener leadershipListener = LeadershipListener.NONE;
    private volatile TopicDeletionListener deletionListener = TopicDeletionListener.NONE;
    /** Set once by {@link #bindMetersTo}; null in tests that bind none. */
    private volatile ReplicaManagerMeters meters;

    /**
     * Told of each partition this broker starts or stops leading, as Kafka's onLeadershipChange callback tells its
     * group coordinator: called on the thread that applies images, right after the new roles are taken.
     */
    public interface LeadershipListener {
        LeadershipListener NONE = new LeadershipListener() {
            @Override
            public void onLeading(TopicPartition partition, int leaderEpoch) {
            }

            @Override
            public void onResigned(TopicPartition partition) {
            }
        };

        /**
         * This broker now leads the partition, at this leader epoch; also when it goes on leading it in a new term
         * (no {@link #onResigned} in between), as Kafka's onElection is called for every leader epoch.
         */
        void onLeading(TopicPartition partition, int leaderEpoch);

        /** This broker no longer leads the partition (another leads it, it has none, or it is no longer here). */
        void onResigned(TopicPartition partition);
    }

    public ReplicaManager(int nodeId, TopicRegistry topics, Purgatory<DelayedProduce> producePurgatory,
                          Purgatory<DelayedFetch> fetchPurgatory,
                          Purgatory<DelayedDeleteRecords> deleteRecordsPurgatory, ReplicaFetchers fetchers,
                          NodeChannel controller, long replicaLagTimeMaxMs,
                          long controllerChannelTimeoutMs, long highWatermarkCheckpointIntervalMs, LongSupplier brokerEpoch,
                          ReplicaSelector selector, ReplicationQuota leaderQuota, BrokerClock clock) {
        this.nodeId = nodeId;
        this.leaderQuota = leaderQuota;
        this.selector = selector;
        this.topics = topics;
        this.producePurgatory = producePurgatory;
        this.fetchPurgatory = fetchPurgatory;
        this.deleteRecordsPurgatory = deleteRecordsPurgatory;
        this.fetchers = fetchers;
        this.controller = controller;
        this.replicaLagTimeMaxMs = replicaLagTimeMaxMs;
        this.imageMaxAgeMs = 2 * controllerChannelTimeoutMs;
        this.clock = clock;
        this.brokerEpoch = brokerEpoch;
        this.checkpointedHighWatermarks = new HashMap<>(topics.logs().checkpointedHighWatermarks());
        this.highWatermarkCheckpointer = new HighWatermarkCheckpointer(topics.logs(), this::highWatermarks,
                highWatermarkCheckpointIntervalMs, clock);
        clock.scheduleWithFixedDelay(isrChanges, "ISR check", Math.max(1, replicaLagTimeMaxMs / 2), this::changeIsrs);
    }

    /** This broker's ReplicaManager meters, read from its hosted partitions; its ISR changes counted. */
    public void bindMetersTo(MeterRegistry registry) {
        meters = new ReplicaManagerMeters(registry, new ReplicaManagerMeters.Partitions() {
            @Override
            public int hosted() {
                return hosted.size();
            }

            @Override
            public int led() {
                return (int) hosted.values().stream().filter(state -> state.leader() != null).count();
            }

            @Override
            public int underReplicated() {
                return (int) hosted.values().stream()
                        .filter(state -> state.leader() != null
                                && state.image().isr().size() < state.image().replicas().size())
                        .count();
            }
        });
        leaderQuota.exportTo(new ReplicationQuotaMeters(registry, "LeaderReplication"));
        fetchers.quota().exportTo(new ReplicationQuotaMeters(registry, "FollowerReplication"));
    }

    /**
     * Drops the replication throttles' sensors (and their byte-rate) an hour after their last record, as Kafka's
     * metrics expire them; run every 30 s, as Kafka's sensor expiry task.
     */
    public void expireIdleQuotaSensors() {
        leaderQuota.expireIdle();
        fetchers.quota().expireIdle();
    }

    /**
     * The latest image applied (its brokers on the inter-broker listener only). Taken before the topic registry learns
     * its topics, so whoever sees a topic change there ({@link io.minibroker.broker.topic.TopicRegistry#version})
     * reads this image or a later one: the group coordinator's partition racks agree with the topics it looks up.
     */
    public ClusterMetadata image() {
        return image;
    }

    /** Sets who is told of leadership changes; before the first image, which the broker's lifecycle fetches. */
    public void setLeadershipListener(LeadershipListener listener) {
        this.leadershipListener = listener;
    }

    /**
     * Sets who is told of the topics each image no longer has (by id: a name deleted and created again between two
     * images counts as deleted), hosted here or not, as Kafka's brokers tell their group coordinator of every
     * deleted topic; before the first image.
     */
    public void setTopicDeletionListener(TopicDeletionListener listener) {
        this.deletionListener = listener;
    }

    /**
     * Takes a new image: creates the logs of newly hosted partitions (of new topics, and those CreatePartitions
     * added), applies the topics' config overrides, takes the roles it gives, and points the fetchers at the
     * leaders. A topic hosted here that the image no longer has (DeleteTopics), or has under another id (deleted
     * and created again), is deleted here as Kafka's brokers do: no longer led or followed, its logs deleted, and
     * what was parked on its partitions answered UNKNOWN_TOPIC_OR_PARTITION. The topics the image no longer has,
     * hosted here or not, go to the {@link #setTopicDeletionListener deletion listener} once the roles are taken
     * and the leadership listener told (as Kafka's BrokerMetadataPublisher tells its group coordinator after the
     * replica manager applied the delta). Images arrive one at a time, in the controller's order, on threads that
     * may wait on the disk (never an event loop).
     */
    public synchronized void apply(ClusterMetadata image) {
        List<TopicMetadata> deleted = topicsLeaving(this.image, image);
        this.image = image;
        topics.knowClusterTopics(image.topics().values().stream().map(ReplicaManager::metadataOf).toList());
        Map<TopicPartition, HostedPartition> next = new HashMap<>();
        Map<Integer, List<FollowedPartition>> followedByLeader = new HashMap<>();
        List<LeadershipStart> leadershipStarts = new ArrayList<>();
        Set<Integer> liveBrokers = new HashSet<>();
        image.brokers().forEach(broker -> liveBrokers.add(broker.id()));
        List<TopicPartition> shrunkByController = new ArrayList<>();
        Set<TopicPartition> movedAway = new HashSet<>();
        for (TopicImage topic : image.topics().values()) {
            if (topic.partitions().stream().noneMatch(p -> p.replicas().contains(nodeId))) {
                continue;
            }
            Set<Integer> replicated = new HashSet<>();
            topic.partitions().stream().filter(p -> p.replicas().contains(nodeId))
                    .forEach(p -> replicated.add(p.index()));
            Errors adopted = topics.adopt(topic.name(), topic.id(), topic.partitions().size(), topic.configs(),
                    replicated);
            if (adopted != Errors.NONE) {
                LOG.warn("Cannot host topic {} here: {}", topic.name(), adopted);
                continue;
            }
            for (PartitionImage partition : topic.partitions()) {
                Optional<PartitionLog> log = topics.get(topic.name())
                        .flatMap(t -> topics.partitionLog(t, partition.index()));
                if (!partition.replicas().contains(nodeId)) {
                    // A reassignment took this replica away (maybe while this broker was down): its log goes.
                    log.ifPresent(moved -> movedAway.add(moved.topicPartition()));
                    continue;
                }
                if (log.isEmpty()) {
                    continue;
                }
                TopicPartition topicPartition = log.get().topicPartition();
                HostedPartition before = hosted.get(topicPartition);
                if (before != null && !before.topic().id().equals(topic.id())) {
                    before = null; // the same name created again: a new partition
                }
                LeaderState leader = null;
                if (partition.leader() == nodeId) {
                    boolean sameTerm = before != null && before.leader() != null
                            && before.image().leaderEpoch() == partition.leaderEpoch();
                    if (sameTerm) {
                        leader = before.leader();
                        leader.metadataArrived();
                        if (!before.image().replicas().equals(partition.replicas())) {
                            leader.replicasChanged(partition.replicas(), clock.monotonicMs());
                        }
                    } else {
                        leader = new LeaderState(nodeId, partition.replicas(), partition.isr(), clock.monotonicMs());
                        leadershipStarts.add(new LeadershipStart(topicPartition, partition, log.get(), before != null));
                    }
                    if (sameTerm && leader.takeFencingShrink(partition.isr(), liveBrokers, clock.monotonicMs(),
                            imageMaxAgeMs)) {
                        LOG.info("ISR of {} is now {}: the controller removed fenced brokers", topicPartition,
                                partition.isr());
                        shrunkByController.add(topicPartition);
                    }
                } else {
                    if (before == null) {
                        restoreHighWatermark(log.get()); // until the leader tells ours
                    }
                    if (partition.leader() != NO_LEADER) {
                        followedByLeader.computeIfAbsent(partition.leader(), id -> new ArrayList<>())
                                .add(new FollowedPartition(topic.id(), log.get(), partition.leaderEpoch()));
                    }
                }
                next.put(topicPartition, new HostedPartition(topic, partition, log.get(), leader));
            }
        }
        // As Kafka's brokers take the fetchers off partitions before making them leaders: once unfollow returns, no
        // fetcher cuts or appends to a partition this image makes ours to lead, so its epoch starts on a log at rest.
        fetchers.unfollow(leadershipStarts.stream().map(LeadershipStart::partition).collect(Collectors.toSet()));
        leadershipStarts.forEach(this::startLeading);
        Map<TopicPartition, HostedPartition> previous = hosted;
        hosted = Map.copyOf(next);
        synchronized (imageApplied) {
            imageApplied.notifyAll();
        }
        boolean liveBrokersChanged = !liveBrokers.equals(this.liveBrokers);
        this.liveBrokers = Set.copyOf(liveBrokers);
        Map<Integer, BrokerNode> brokers = new HashMap<>();
        image.brokers().forEach(broker -> brokers.put(broker.id(), broker));
        fetchers.follow(followedByLeader, brokers); // after hosted: a partition led no more takes no produce now
        deleteReplicasMovedAway(movedAway);
        deleteTopicsNotIn(image);
        previous.forEach((partition, before) -> {
            HostedPartition now = next.get(partition);
            if (before.leader() != null && (now == null || now.leader() != before.leader())) {
                // A new term, leadership lost, or the topic deleted: what was parked on it is looked at again.
                checkParked(partition);
                if (now == null || now.leader() == null) {
                    LOG.info("No longer leading {}", partition);
                    leadershipListener.onResigned(partition);
                }
                // A leader that goes on leading in a new term (a reassignment removed a follower) does not resign:
                // as Kafka's coordinators, the listener only hears of the new epoch.
            }
        });
        next.forEach((partition, now) -> {
            HostedPartition before = previous.get(partition);
            if (now.leader() != null && (before == null || before.leader() != now.leader())) {
                // a leader alone in its ISR commits its log at once, unless that is under min.insync.replicas
                maybeAdvanceHighWatermark(partition, now);
                leadershipListener.onLeading(partition, now.image().leaderEpoch());
            }
        });
        if (liveBrokersChanged) {
            // A deletion waiting for a follower that is no longer live waits for it no more (the low watermark).
            next.forEach((partition, now) -> {
                if (now.leader() != null) {
                    deleteRecordsPurgatory.checkAndComplete(partition);
                }
            });
        }
        for (TopicPartition partition : shrunkByController) {
            // The high watermark may move without the fenced followers; parked produces see the smaller ISR.
            maybeAdvanceHighWatermark(partition, next.get(partition));
            producePurgatory.checkAndComplete(partition);
        }
        if (!deleted.isEmpty()) {
            leaderQuota.onTopicsDeleted(deleted);
            fetchers.forgetDeletedTopics(deleted);
            deletionListener.onTopicsDeleted(deleted);
        }
        highWatermarkCheckpointer.start();
    }

    private static TopicMetadata metadataOf(TopicImage topic) {
        return new TopicMetadata(topic.name(), topic.id(), topic.partitions().size(), topic.configs());
    }

    /** The topics of {@code before} whose ids {@code after} does not have. */
    private static List<TopicMetadata> topicsLeaving(ClusterMetadata before, ClusterMetadata after) {
        Set<UUID> kept = new HashSet<>();
        after.topics().values().forEach(topic -> kept.add(topic.id()));
        return before.topics().values().stream().filter(topic -> !kept.contains(topic.id()))
                .map(ReplicaManager::metadataOf).toList();
    }

    /**
     * Starts a replicated partition's high watermark, the first time it is hosted since the start, from the
     * checkpoint (at least the log start; the log end caps it when read); 0 for one never checkpointed.
     */
    private void restoreHighWatermark(PartitionLog log) {
        Long checkpointed = checkpointedHighWatermarks.remove(log.topicPartition());
        log.setReplicatedHighWatermark(Math.max(checkpointed == null ? 0 : checkpointed, log.logStartOffset()));
    }

    /** The high watermark of every hosted partition, for the checkpoint. */
    private Map<TopicPartition, Long> highWatermarks() {
        Map<TopicPartition, Long> highWatermarks = new HashMap<>();
        hosted.forEach((partition, state) -> highWatermarks.put(partition, state.log().highWatermark()));
        return highWatermarks;
    }

    /**
     * Deletes the logs of the partitions a reassignment took from this broker, once no fetcher copies into them
     * (a topic with no replica here any more goes whole, {@link #deleteTopicsNotIn}).
     */
    private void deleteReplicasMovedAway(Set<TopicPartition> movedAway) {
        if (movedAway.isEmpty()) {
            return;
        }
        fetchers.unfollow(movedAway);
        // What was parked here (on a leader, or a consumer's read from this follower) is answered while the log is
        // still there: NOT_LEADER_OR_FOLLOWER with the new leader, as Kafka, which still has the partition in its
        // metadata; once deleted, the log would answer UNKNOWN_TOPIC_OR_PARTITION, the answer for a deleted topic.
        movedAway.forEach(this::checkParked);
        for (TopicPartition partition : movedAway) {
            try {
                topics.deleteReplicaLog(partition);
                LOG.info("No longer a replica of {}: its log is deleted here", partition);
            } catch (IOException e) {
                LOG.warn("Could not delete the log of {}, no longer a replica here", partition, e);
            }
        }
    }

    /** Completes what is parked on the partition and can be answered now (this broker's role in it changed). */
    private void checkParked(TopicPartition partition) {
        producePurgatory.checkAndComplete(partition);
        fetchPurgatory.checkAndComplete(partition);
        deleteRecordsPurgatory.checkAndComplete(partition);
    }

    /** Deletes the topics here that the image does not give this broker any replica of. */
    private void deleteTopicsNotIn(ClusterMetadata image) {
        for (TopicMetadata local : List.copyOf(topics.all())) {
            Optional<TopicImage> stillInCluster = image.topic(local.name())
                    .filter(topic -> topic.id().equals(local.id()));
            if (stillInCluster.isPresent()) {
                if (stillInCluster.get().partitions().stream().anyMatch(p -> p.replicas().contains(nodeId))) {
                    continue;
                }
                // Every replica here was moved away: what was parked on them is answered before the logs go, as in
                // deleteReplicasMovedAway.
                LOG.info("No longer a replica of any partition of topic {}: deleting it here", local.name());
                for (int partition = 0; partition < local.partitions(); partition++) {
                    checkParked(new TopicPartition(local.name(), partition));
                }
            } else {
                LOG.info("Topic {} is no longer in the cluster's metadata: deleting it here", local.name());
            }
            Errors deleted = topics.delete(local.name());
            if (deleted != Errors.NONE) {
                LOG.warn("Could not delete topic {}: {}", local.name(), deleted);
            }
        }
    }

    /** A partition an image makes this broker lead in a new term: its log, and whether it was hosted before. */
    private record LeadershipStart(TopicPartition partition, PartitionImage image, PartitionLog log,
                                   boolean wasHosted) {
    }

    /**
     * Leading a replicated partition starts from the high watermark it had as a follower, or, just started, from
     * its checkpoint; what lies above it is committed once the ISR's fetches prove it.
     */
    private void startLeading(LeadershipStart start) {
        PartitionImage image = start.image();
        if (image.replicas().size() > 1 && !start.wasHosted()) {
            restoreHighWatermark(start.log());
        }
        start.log().assignLeaderEpoch(image.leaderEpoch()); // the previous epoch ends at our log end
        LOG.info("Leading {} at epoch {} with replicas {}, ISR {}", start.partition(), image.leaderEpoch(),
                image.replicas(), image.isr());
    }

    @Override
    public boolean isLeader(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state != null && state.leader() != null;
    }

    @Override
    public boolean hostsReplica(TopicPartition partition) {
        return hosted.containsKey(partition);
    }

    @Override
    public int leaderEpoch(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state == null ? -1 : state.image().leaderEpoch();
    }

    /**
     * Epoch and leadership read from one hosted state: an image applied between two reads would mix them. A
     * partition with no replica here is NOT_LEADER_OR_FOLLOWER whatever the epoch named, as Kafka's
     * getPartitionOrException answers before any epoch check.
     */
    @Override
    public Errors checkLeaderEpoch(TopicPartition partition, int currentEpoch, boolean requireLeader) {
        HostedPartition state = hosted.get(partition);
        if (state == null) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        return PartitionLeadership.checkLeaderEpoch(state.image().leaderEpoch(), state.leader() != null,
                currentEpoch, requireLeader);
    }

    @Override
    public int inSyncReplicas(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state == null || state.leader() == null ? 0 : state.leader().isr().size();
    }

    @Override
    public CurrentLeader currentLeader(TopicPartition partition, String listener) {
        ClusterMetadata latest = image;
        Optional<PartitionImage> found = latest.topic(partition.topic()).flatMap(topic -> topic.partitions().stream()
                .filter(p -> p.index() == partition.partition()).findFirst());
        if (found.isEmpty()) {
            return CurrentLeader.UNKNOWN;
        }
        PartitionImage leading = found.get();
        return latest.brokers(listener).stream().filter(broker -> broker.id() == leading.leader()).findFirst()
                .map(broker -> new CurrentLeader(leading.leader(), leading.leaderEpoch(), broker.host(), broker.port(),
                        broker.rack()))
                .orElse(new CurrentLeader(leading.leader(), leading.leaderEpoch(), null, -1, null));
    }

    /**
     * KIP-392, as Kafka's ReplicaManager.findPreferredReadReplica: on the leader, the replica that
     * {@code replica.selector.class} points a consumer in {@code clientRack} to, among the followers that qualify
     * ({@link LeaderState#readReplicas}) and the leader, each in the rack its endpoint on the consumer's listener
     * has (a broker not live in the image has none there); -1 when it is the leader or this broker leads not.
     */
    @Override
    public int preferredReadReplica(TopicPartition partition, String clientRack, String listener, long fetchOffset) {
        if (selector == ReplicaSelector.LEADER || clientRack == null || clientRack.isEmpty()) {
            return -1; // the leader, whatever the replicas: no map of their racks made on the fetch path
        }
        HostedPartition state = hosted.get(partition);
        if (state == null || state.leader() == null) {
            return -1;
        }
        Map<Integer, ClusterMetadata.BrokerNode> endpoints = new HashMap<>();
        image.brokers(listener).forEach(broker -> endpoints.put(broker.id(), broker));
        IntFunction<String> rackOf = id -> endpoints.containsKey(id) ? endpoints.get(id).rack() : null;
        List<ReplicaSelector.ReplicaView> replicas = new ArrayList<>(
                state.leader().readReplicas(fetchOffset, clock.monotonicMs(), rackOf));
        ReplicaSelector.ReplicaView leader = new ReplicaSelector.ReplicaView(nodeId, rackOf.apply(nodeId),
                state.log().logEndOffset(), 0);
        replicas.add(leader);
        ReplicaSelector.ReplicaView selected = selector.select(clientRack, leader, replicas);
        return selected.equals(leader) || !endpoints.containsKey(selected.id()) ? -1 : selected.id();
    }

    @Override
    public int replicaCount(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state == null ? 0 : state.image().replicas().size();
    }

    /** Kafka's shouldLeaderThrottle: an in-sync follower is never held back, so the ISR cannot shrink for it. */
    @Override
    public boolean throttlesFollowerFetch(TopicPartition partition, int replicaId) {
        HostedPartition state = hosted.get(partition);
        return state != null && state.leader() != null && !state.leader().isr().contains(replicaId)
                && leaderQuota.isThrottled(partition) && leaderQuota.isQuotaExceeded();
    }

    @Override
    public boolean isLeaderThrottled(TopicPartition partition) {
        return leaderQuota.isThrottled(partition);
    }

    /**
     * As Kafka's KafkaApis: every follower fetch answered records its throttled bytes, 0 too (a record opens the
     * rate's windows and dates its last event, which decide when bytes age out and what the rate divides by).
     */
    @Override
    public void answeredFollower(long throttledBytes) {
        leaderQuota.record(throttledBytes);
    }

    @Override
    public boolean hasFollower(TopicPartition partition, int replicaId) {
        HostedPartition state = hosted.get(partition);
        return state != null && state.leader() != null && state.leader().hasFollower(replicaId);
    }

    @Override
    public void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                                long logStartOffset) {
        HostedPartition state = hosted.get(partition);
        if (state == null || state.leader() == null) {
            return;
        }
        PartitionLog log = state.log();
        LeaderState.FetchSeen seen = state.leader().onFetch(replicaId, replicaEpoch, fetchOffset, logStartOffset,
                log.logEndOffset(), clock.monotonicMs());
        if (seen == LeaderState.FetchSeen.NOT_A_REPLICA) {
            return;
        }
        if (seen == LeaderState.FetchSeen.LOG_START_MOVED) {
            deleteRecordsPurgatory.checkAndComplete(partition); // a deletion may wait for this log start
        }
        maybeAdvanceHighWatermark(partition, state);
        if (!state.leader().isr().contains(replicaId) && fetchOffset >= log.highWatermark()) {
            try {
                isrChanges.execute(() -> changeIsr(partition, state)); // caught up: back into the ISR
            } catch (RejectedExecutionException stopping) {
                // the broker is stopping: no more ISR changes
            }
        }
    }

    @Override
    public long lowWatermark(PartitionLog log) {
        HostedPartition state = hosted.get(log.topicPartition());
        if (state == null || state.leader() == null) {
            return log.logStartOffset();
        }
        return state.leader().lowWatermark(log.logStartOffset(), liveBrokers);
    }

    @Override
    public void onLeaderAppend(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        if (state != null && state.leader() != null) {
            maybeAdvanceHighWatermark(partition, state);
        }
    }

    /**
     * High watermark = the least log end over the ISR; a follower not heard from yet counts as empty. It stays put
     * while the ISR is under the effective min.insync.replicas, as Kafka's maybeIncrementLeaderHW (KAFKA-15583):
     * records an acks=1 producer wrote then are not committed, nor served to consumers, until enough replicas have
     * them, so a leader alone in its ISR cannot commit what an unclean election would lose.
     */
    private void maybeAdvanceHighWatermark(TopicPartition partition, HostedPartition state) {
        if (state.image().replicas().size() > 1
                && !isUnderMinIsr(partition, topics.minInsyncReplicas(partition.topic()))
                && state.log().advanceReplicatedHighWatermark(state.leader().leastIsrLogEnd(state.log().logEndOffset()))) {
            producePurgatory.checkAndComplete(partition);
            fetchPurgatory.checkAndComplete(partition);
        }
    }

    private void changeIsrs() {
        hosted.forEach((partition, state) -> {
            if (state.leader() != null) {
                changeIsr(partition, state);
            }
        });
    }

    /** Asks the controller for the ISR the followers' lag calls for, if it differs; on {@code isr-changes}. */
    private void changeIsr(TopicPartition partition, HostedPartition state) {
        List<Integer> wanted = state.leader().wantedIsr(clock.monotonicMs(), replicaLagTimeMaxMs,
                state.log().highWatermark(), state.log().latestEpochStartOffset(), liveBrokers,
                heldOutOfIsr.getOrDefault(partition, Set.of()));
        if (wanted != null) {
            sendIsrChange(partition, state, wanted);
        }
    }

    /** Sends the pending ISR change {@code wanted} to the controller and takes its answer; on {@code isr-changes}. */
    private void sendIsrChange(TopicPartition partition, HostedPartition state, List<Integer> wanted) {
        LeaderState leader = state.leader();
        long ownEpoch = brokerEpoch.getAsLong();
        AlterPartitionRequestView request = new AlterPartitionRequestView().brokerId(nodeId).brokerEpoch(ownEpoch);
        AlterPartitionRequestView.PartitionData partitionData = request.addTopic().topicId(state.topic().id())
                .addPartition()
                .partitionIndex(partition.partition())
                .leaderEpoch(state.image().leaderEpoch())
                .partitionEpoch(leader.partitionEpoch());
        for (int replica : wanted) {
            partitionData.addNewIsrWithEpoch().brokerId(replica)
                    .brokerEpoch(replica == nodeId ? ownEpoch : leader.brokerEpoch(replica));
        }
        AlterPartitionResponseView answer;
        try {
            answer = new AlterPartitionResponseView(
                    controller.send(ApiKey.ALTER_PARTITION, ALTER_PARTITION_VERSION, request.struct()));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not send ISR {} for {} to the controller ({}); sending it again in {} ms", wanted,
                    partition, e.toString(), ALTER_PARTITION_RETRY_BACKOFF_MS);
            resendLater(partition, state, wanted);
            return;
        }
        Errors topLevel = Errors.forCode(answer.errorCode());
        Errors error = topLevel != Errors.NONE ? topLevel
                : Errors.forCode(answer.topics().get(0).partitions().get(0).errorCode());
        if (error != Errors.NONE) {
            if (AWAIT_METADATA_AFTER.contains(error) && topLevel == Errors.NONE) {
                LOG.warn("The controller refused ISR {} for {}: {}", wanted, partition, error);
                leader.awaitMetadata(error == Errors.INVALID_UPDATE_VERSION);
            } else if (DROPPED_AFTER.contains(error) && topLevel == Errors.NONE) {
                LOG.warn("The controller refused ISR {} for {}: {}", wanted, partition, error);
                leader.changeAnswered(null, -1, clock.monotonicMs());
            } else {
                LOG.warn("The controller refused ISR {} for {}: {}; sending it again in {} ms", wanted, partition,
                        error, ALTER_PARTITION_RETRY_BACKOFF_MS);
                resendLater(partition, state, wanted);
            }
            return;
        }
        AlterPartitionResponseView.PartitionData result = answer.topics().get(0).partitions().get(0);
        List<Integer> isr = result.isr();
        int partitionEpoch = result.partitionEpoch();
        LOG.info("ISR of {} is now {} (partition epoch {})", partition, isr, partitionEpoch);
        int before = leader.isr().size();
        leader.changeAnswered(isr, partitionEpoch, clock.monotonicMs());
        ReplicaManagerMeters counted = meters;
        if (counted != null) {
            counted.isrChanged(before, isr.size());
        }
        // A smaller ISR may move the high watermark; either way, parked produces see the new ISR size.
        maybeAdvanceHighWatermark(partition, state);
        producePurgatory.checkAndComplete(partition);
    }

    /**
     * Sends the change {@code wanted} again after the backoff, unless by then it is no longer the one pending for
     * this term (an image of a new term replaced the leader's state, or one of this term dropped the change).
     */
    private void resendLater(TopicPartition partition, HostedPartition state, List<Integer> wanted) {
        try {
            clock.scheduleOnce(isrChanges, "AlterPartition resend", ALTER_PARTITION_RETRY_BACKOFF_MS, () -> {
                HostedPartition now = hosted.get(partition);
                if (now != null && now.leader() == state.leader() && state.leader().isPending(wanted)) {
                    sendIsrChange(partition, now, wanted);
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the broker is stopping: no more ISR changes
        }
    }

    /**
     * A test's control, on the partition's leader: takes {@code replica} out of the ISR now (through the controller,
     * as a lagging follower would be) and keeps it out, caught up or not, until {@link #releaseToIsr}. Returns the
     * ISR once the controller has answered.
     *
     * @throws IllegalStateException if this broker does not lead the partition, or the controller refused
     * @throws IllegalArgumentException if {@code replica} is the leader or not a replica of the partition
     */
    public List<Integer> holdOutOfIsr(TopicPartition partition, int replica) throws InterruptedException {
        HostedPartition state = ledHere(partition);
        if (replica == nodeId || !state.image().replicas().contains(replica)) {
            throw new IllegalArgumentException("node " + replica + " is " + (replica == nodeId ? "the leader"
                    : "not a replica") + " of " + partition + " (replicas " + state.image().replicas() + ")");
        }
        heldOutOfIsr.computeIfAbsent(partition, p -> ConcurrentHashMap.newKeySet()).add(replica);
        List<Integer> isr = changeIsrNow(partition);
        if (isr.contains(replica)) {
            throw new IllegalStateException("the controller kept node " + replica + " in the ISR of " + partition
                    + " (see this broker's log); it stays held out and leaves at the next ISR check");
        }
        return isr;
    }

    /**
     * Ends {@link #holdOutOfIsr}: the follower is taken back as soon as it has caught up (at once if it has).
     * Returns the ISR after this broker asked.
     */
    public List<Integer> releaseToIsr(TopicPartition partition, int replica) throws InterruptedException {
        ledHere(partition);
        Set<Integer> held = heldOutOfIsr.get(partition);
        if (held != null) {
            held.remove(replica);
        }
        return changeIsrNow(partition);
    }

    /** Ends every {@link #holdOutOfIsr}: the followers come back as their next fetches show them caught up. */
    public void releaseAllFromIsrHolds() {
        heldOutOfIsr.clear();
    }

    /** This broker's replica fetchers, which a test's control may pause ({@link ReplicaFetchers#pause}). */
    public ReplicaFetchers fetchers() {
        return fetchers;
    }

    /** Runs the ISR check of one partition now, on {@code isr-changes}, and returns its ISR after it. */
    private List<Integer> changeIsrNow(TopicPartition partition) throws InterruptedException {
        HostedPartition state = ledHere(partition);
        try {
            isrChanges.submit(() -> changeIsr(partition, state)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the ISR check of " + partition + " failed", e.getCause());
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the broker is stopping", e);
        }
        return state.leader().isr();
    }

    /**
     * The partition led here, waiting up to {@value #LEADERSHIP_WAIT_MS} ms for a leadership the controller may just
     * have moved to us (a test moves a leader, then asks the new one to shrink its ISR).
     */
    private HostedPartition ledHere(TopicPartition partition) throws InterruptedException {
        long deadline = REAL_TIME.monotonicNanos() + TimeUnit.MILLISECONDS.toNanos(LEADERSHIP_WAIT_MS);
        HostedPartition state = hosted.get(partition);
        synchronized (imageApplied) {
            while ((state == null || state.leader() == null) && deadline - REAL_TIME.monotonicNanos() > 0) {
                TimeUnit.NANOSECONDS.timedWait(imageApplied, deadline - REAL_TIME.monotonicNanos());
                state = hosted.get(partition);
            }
        }
        if (state == null || state.leader() == null) {
            int leader = state == null ? NO_LEADER : state.image().leader();
            throw new IllegalStateException("node " + nodeId + " does not lead " + partition
                    + (leader == NO_LEADER ? "" : ": node " + leader + " does, ask its controls"));
        }
        return state;
    }

    /** Stops changing ISRs and fetching, then checkpoints the high watermarks as they ended. */
    @Override
    public void close() {
        isrChanges.shutdownNow();
        try {
            isrChanges.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        fetchers.close();
        try {
            highWatermarkCheckpointer.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        controller.close();
    }
}
