package io.minibroker.broker.replica;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.Purgatory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions this broker hosts in a cluster and its role in each, from the controller's image: it leads the
 * partitions whose leader is this node and follows the others (a {@link ReplicaFetchers} thread per leader copies
 * their logs). As a leader it learns each follower's log end from where the follower fetches, and keeps the high
 * watermark at the least log end over the ISR; when that moves, the acks=all produces and consumer fetches parked
 * on the partition are completed (checkAndComplete). A partition with one replica keeps the single-node rule:
 * its high watermark is its log end.
 */
public final class ReplicaManager implements PartitionLeadership, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);

    /** A hosted partition as the image has it, and its log here. */
    private record HostedPartition(PartitionImage image, PartitionLog log) {
    }

    private final int nodeId;
    private final TopicRegistry topics;
    private final Purgatory<DelayedProduce> producePurgatory;
    private final Purgatory<DelayedFetch> fetchPurgatory;
    private final ReplicaFetchers fetchers;
    private volatile Map<TopicPartition, HostedPartition> hosted = Map.of();
    /** Each led partition's followers' log ends, by follower id, as their fetches tell. */
    private final Map<TopicPartition, Map<Integer, Long>> followerLogEnds = new ConcurrentHashMap<>();

    public ReplicaManager(int nodeId, TopicRegistry topics, Purgatory<DelayedProduce> producePurgatory,
                          Purgatory<DelayedFetch> fetchPurgatory, ReplicaFetchers fetchers) {
        this.nodeId = nodeId;
        this.topics = topics;
        this.producePurgatory = producePurgatory;
        this.fetchPurgatory = fetchPurgatory;
        this.fetchers = fetchers;
    }

    /**
     * Takes a new image: creates the logs of newly hosted partitions, takes the roles it gives, and points the
     * fetchers at the leaders. Images arrive one at a time, in the controller's order.
     */
    public synchronized void apply(ClusterMetadata image) {
        Map<TopicPartition, HostedPartition> next = new HashMap<>();
        Map<Integer, List<FollowedPartition>> followedByLeader = new HashMap<>();
        for (TopicImage topic : image.topics().values()) {
            if (topic.partitions().stream().noneMatch(p -> p.replicas().contains(nodeId))) {
                continue;
            }
            Errors adopted = topics.adopt(topic.name(), topic.id(), topic.partitions().size());
            if (adopted != Errors.NONE) {
                LOG.warn("Cannot host topic {} here: {}", topic.name(), adopted);
                continue;
            }
            for (PartitionImage partition : topic.partitions()) {
                Optional<PartitionLog> log = topics.get(topic.name())
                        .flatMap(t -> topics.partitionLog(t, partition.index()));
                if (!partition.replicas().contains(nodeId) || log.isEmpty()) {
                    continue;
                }
                TopicPartition topicPartition = log.get().topicPartition();
                HostedPartition before = hosted.get(topicPartition);
                next.put(topicPartition, new HostedPartition(partition, log.get()));
                if (partition.leader() == nodeId) {
                    if (before == null || before.image().leader() != nodeId) {
                        becomeLeader(topicPartition, partition, log.get());
                    }
                } else {
                    if (before == null || before.image().leader() != partition.leader()) {
                        log.get().setReplicatedHighWatermark(0); // until the leader tells ours
                    }
                    followedByLeader.computeIfAbsent(partition.leader(), id -> new ArrayList<>())
                            .add(new FollowedPartition(topic.id(), log.get()));
                }
            }
        }
        hosted = Map.copyOf(next);
        Map<Integer, BrokerNode> brokers = new HashMap<>();
        image.brokers().forEach(broker -> brokers.put(broker.id(), broker));
        fetchers.follow(followedByLeader, brokers);
    }

    /**
     * Leading a replicated partition starts from the high watermark its followers' fetches will prove: nothing
     * is known to be replicated until they fetch, which they do within replica.fetch.wait.max.ms.
     */
    private void becomeLeader(TopicPartition partition, PartitionImage image, PartitionLog log) {
        followerLogEnds.remove(partition);
        if (image.replicas().size() > 1) {
            log.setReplicatedHighWatermark(0);
        }
        LOG.info("Leading {} at epoch {} with replicas {}", partition, image.leaderEpoch(), image.replicas());
    }

    @Override
    public boolean isLeader(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state != null && state.image().leader() == nodeId;
    }

    @Override
    public int inSyncReplicas(TopicPartition partition) {
        HostedPartition state = hosted.get(partition);
        return state == null ? 0 : state.image().isr().size();
    }

    @Override
    public void onFollowerFetch(TopicPartition partition, int replicaId, long fetchOffset) {
        HostedPartition state = hosted.get(partition);
        if (state == null || state.image().leader() != nodeId || !state.image().replicas().contains(replicaId)) {
            return;
        }
        followerLogEnds.computeIfAbsent(partition, p -> new ConcurrentHashMap<>()).put(replicaId, fetchOffset);
        if (state.image().replicas().size() > 1) {
            maybeAdvanceHighWatermark(partition, state);
        }
    }

    /** High watermark = the least log end over the ISR; a follower not heard from yet counts as empty. */
    private void maybeAdvanceHighWatermark(TopicPartition partition, HostedPartition state) {
        PartitionLog log = state.log();
        Map<Integer, Long> followers = followerLogEnds.getOrDefault(partition, Map.of());
        long least = log.logEndOffset();
        for (int replica : state.image().isr()) {
            if (replica != nodeId) {
                least = Math.min(least, followers.getOrDefault(replica, 0L));
            }
        }
        if (log.advanceReplicatedHighWatermark(least)) {
            producePurgatory.checkAndComplete(partition);
            fetchPurgatory.checkAndComplete(partition);
        }
    }

    @Override
    public void close() {
        fetchers.close();
    }
}
