package io.minibroker.broker.replica;

import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One {@link ReplicaFetcher} thread per leader this broker follows partitions of, as Kafka's
 * ReplicaFetcherManager keeps them: started when a leader first has partitions for us, given the new list on each
 * image, stopped when we follow nothing of it any more or it moved to another address.
 */
public final class ReplicaFetchers implements AutoCloseable {

    private final int nodeId;
    private final LongSupplier brokerEpoch;
    private final FetcherSettings settings;
    /** How to connect to the leaders' inter-broker listener (TLS, SASL sign-in). */
    private final ClientSecurity security;
    /** Where the followers count the bytes they append (ReplicationBytesIn). */
    private final BrokerTopicMetrics metrics;
    /** The follower's side of KIP-73's replication throttle, shared by every fetcher, as Kafka's one quota. */
    private final ReplicationQuota quota;
    /** Told of each followed partition whose log or high watermark moved (see {@link ReplicaFetcher}). */
    private final Consumer<TopicPartition> onProgress;
    private final Map<Integer, ReplicaFetcher> byLeader = new HashMap<>();
    /**
     * Fetchers {@link #follow} stopped whose threads may not have ended (one in a follower's fsync): joined at
     * {@link #close}, not by the image that stopped them, which would wait on that disk.
     */
    private final List<ReplicaFetcher> stopped = new ArrayList<>();
    private final FetchPauses pauses = new FetchPauses();
    private final FetchDelays delays = new FetchDelays();
    private final FlushHolds flushHolds = new FlushHolds();

    /**
     * @param brokerEpoch this broker's epoch from its registration (-1 before it has one)
     * @param onProgress  told, on a fetcher's thread, of each followed partition an answer appended to or moved the
     *                    high watermark of: consumers' fetches served by this follower (KIP-392) park on it
     */
    public ReplicaFetchers(int nodeId, LongSupplier brokerEpoch, FetcherSettings settings, ClientSecurity security,
                           BrokerTopicMetrics metrics, ReplicationQuota quota, Consumer<TopicPartition> onProgress) {
        this.nodeId = nodeId;
        this.quota = quota;
        this.brokerEpoch = brokerEpoch;
        this.settings = settings;
        this.security = security;
        this.metrics = metrics;
        this.onProgress = onProgress;
    }

    /** Follows these partitions, by leader id; a leader not among the live {@code brokers} is not fetched from. */
    synchronized void follow(Map<Integer, List<FollowedPartition>> partitionsByLeader,
                             Map<Integer, BrokerNode> brokers) {
        for (Map.Entry<Integer, ReplicaFetcher> entry : Map.copyOf(byLeader).entrySet()) {
            BrokerNode leader = brokers.get(entry.getKey());
            if (!partitionsByLeader.containsKey(entry.getKey()) || !entry.getValue().fetchesFrom(leader)) {
                entry.getValue().stop();
                stopped.add(entry.getValue());
                byLeader.remove(entry.getKey());
            }
        }
        stopped.removeIf(ReplicaFetcher::ended);
        partitionsByLeader.forEach((leaderId, partitions) -> {
            BrokerNode leader = brokers.get(leaderId);
            if (leader == null) {
                return;
            }
            byLeader.computeIfAbsent(leaderId, id -> ReplicaFetcher.start(nodeId, brokerEpoch, leader, settings,
                    security, pauses, delays, flushHolds, metrics, quota, onProgress)).setPartitions(partitions);
        });
    }

    /** The follower's side of the replication throttle, which every fetcher records into. */
    public ReplicationQuota quota() {
        return quota;
    }

    /** Tells the follower's throttle of the topics the image no longer has. */
    void forgetDeletedTopics(Collection<TopicMetadata> deleted) {
        quota.onTopicsDeleted(deleted);
    }

    /**
     * Stops fetching these partitions, which this broker is about to lead: once this returns, no fetcher cuts or
     * appends to them (a fetcher left with nothing to follow is stopped by the next {@link #follow}).
     */
    synchronized void unfollow(Set<TopicPartition> partitions) {
        byLeader.values().forEach(fetcher -> fetcher.unfollow(partitions));
    }

    /**
     * A test's control: stops fetching a partition ({@code partition} -1: the whole topic; a null topic: every
     * partition), so that this follower falls behind and its leaders drop it from their ISRs.
     */
    public void pause(String topic, int partition) {
        pauses.pause(topic, partition);
    }

    /** Fetches again what {@link #pause} of the same arguments stopped (a null topic: everything). */
    public void resume(String topic, int partition) {
        pauses.resume(topic, partition);
    }

    /**
     * A test's control: each fetch of a partition ({@code partition} -1: the whole topic; a null topic: every
     * partition) waits {@code delay} after the previous one's answer, so this follower replicates it late but alive;
     * {@link Duration#ZERO} lifts it (a null topic: every delay). Rejects a negative delay.
     */
    public void slow(String topic, int partition, Duration delay) {
        delays.slow(topic, partition, delay);
    }

    /**
     * A test's control: every follower's fsync of what it appended ({@code flush.messages}) waits from now on until
     * {@link #releaseFlushes}, as on a disk that takes that long to sync; {@link #flushesHeld} counts those waiting.
     */
    public void holdFlushes() {
        flushHolds.hold();
    }

    /** Ends {@link #holdFlushes}: the fsyncs held run. */
    public void releaseFlushes() {
        flushHolds.release();
    }

    /** The fetchers waiting to fsync under {@link #holdFlushes}. */
    public int flushesHeld() {
        return flushHolds.waiting();
    }

    @Override
    public void close() {
        flushHolds.close(); // before the fetchers' threads are joined: a held one must reach its end
        closeFetchers();
    }

    private synchronized void closeFetchers() {
        byLeader.values().forEach(ReplicaFetcher::close);
        byLeader.clear();
        stopped.forEach(ReplicaFetcher::join);
        stopped.clear();
    }
}
