package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A cluster coordinator's markers, as Kafka's TransactionMarkerChannelManager sends them: each partition's leader is
 * looked up in the latest metadata image at every attempt (so a retry after NOT_LEADER_OR_FOLLOWER goes to the new
 * leader); this node's own partitions go straight to the {@link LeaderMarkerAppender}, the others' through the
 * leader's queue ({@link MarkerQueues}: one WriteTxnMarkers in flight per leader, carrying every marker queued
 * meanwhile), over a channel to that node on the inter-broker listener, sent from the channel's own thread (the
 * channel blocks). A partition without a leader, or whose leader cannot be reached, is
 * NOT_LEADER_OR_FOLLOWER, which {@link TransactionMarkers} retries; one whose topic the image no longer has is
 * UNKNOWN_TOPIC_OR_PARTITION (deleted: it needs no marker).
 */
public final class ClusterMarkerAppender implements TransactionMarkerAppender, AutoCloseable {

    private final int nodeId;
    private final Supplier<ClusterMetadata> image;
    private final TransactionMarkerAppender local;
    private final String listenerName;
    private final NodeChannels channels;
    private final MarkerQueues queues;

    public ClusterMarkerAppender(int nodeId, Supplier<ClusterMetadata> image, TransactionMarkerAppender local,
                                 String listenerName, ClientSecurity security, int timeoutMs) {
        this.nodeId = nodeId;
        this.image = image;
        this.local = local;
        this.listenerName = listenerName;
        this.channels = new NodeChannels("broker-" + nodeId + "-txn-markers", security, timeoutMs);
        this.queues = new MarkerQueues((node, request) -> channels.send(node, ApiKey.WRITE_TXN_MARKERS,
                ApiKey.WRITE_TXN_MARKERS.highestStableVersion(), request));
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker,
                                                               Collection<TopicPartition> partitions) {
        ClusterMetadata current = image.get();
        Map<TopicPartition, Errors> known = new HashMap<>();
        Map<Integer, List<TopicPartition>> byLeader = new HashMap<>();
        for (TopicPartition partition : partitions) {
            Optional<PartitionImage> found = current.topic(partition.topic())
                    .filter(topic -> partition.partition() < topic.partitions().size())
                    .map(topic -> topic.partitions().get(partition.partition()));
            if (found.isEmpty()) {
                known.put(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION);
            } else if (found.get().leader() < 0) {
                known.put(partition, Errors.NOT_LEADER_OR_FOLLOWER);
            } else {
                byLeader.computeIfAbsent(found.get().leader(), leader -> new ArrayList<>()).add(partition);
            }
        }
        List<CompletableFuture<Map<TopicPartition, Errors>>> answers = new ArrayList<>();
        answers.add(CompletableFuture.completedFuture(known));
        byLeader.forEach((leader, led) -> answers.add(leader == nodeId
                ? local.append(marker, led).toCompletableFuture()
                : remote(current, leader, marker, led)));
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<TopicPartition, Errors> all = new HashMap<>();
            answers.forEach(answer -> all.putAll(answer.join()));
            return all;
        });
    }

    private CompletableFuture<Map<TopicPartition, Errors>> remote(ClusterMetadata current, int leader,
                                                                  TransactionMarker marker,
                                                                  List<TopicPartition> partitions) {
        Optional<BrokerNode> node = current.brokers(listenerName).stream()
                .filter(broker -> broker.id() == leader).findFirst();
        if (node.isEmpty()) {
            return CompletableFuture.completedFuture(PartitionErrors.every(partitions,
                    Errors.NOT_LEADER_OR_FOLLOWER));
        }
        return queues.enqueue(node.get(), marker, partitions);
    }

    @Override
    public void close() {
        channels.close();
    }
}
