package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.group.CoordinatorLocator.Coordinator;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The leaders of {@code __consumer_offsets}' partitions in a cluster, from the latest image: a group's coordinator is
 * the leader of its partition (Kafka's partitionFor), at that broker's endpoint on the listener the request came on.
 */
public final class ClusterOffsetsTopicLeaders implements CoordinatorLocator.OffsetsTopicLeaders {

    private final Supplier<ClusterMetadata> image;

    public ClusterOffsetsTopicLeaders(Supplier<ClusterMetadata> image) {
        this.image = image;
    }

    @Override
    public Optional<Coordinator> leaderFor(String groupId, String listenerName) {
        ClusterMetadata current = image.get();
        return current.topic(OffsetsTopic.NAME).map(topic -> leaderFor(groupId, listenerName, current, topic));
    }

    private static Coordinator leaderFor(String groupId, String listenerName, ClusterMetadata current,
                                         TopicImage topic) {
        PartitionImage partition = topic.partitions().get(OffsetsTopic.partitionFor(groupId, topic.partitions().size()));
        return current.brokers(listenerName).stream()
                .filter(broker -> broker.id() == partition.leader())
                .findFirst()
                .map(ClusterOffsetsTopicLeaders::at)
                .orElseGet(Coordinator::notAvailable); // no leader, or the leader has no such listener
    }

    private static Coordinator at(BrokerNode broker) {
        return new Coordinator(Errors.NONE, broker.id(), broker.host(), broker.port());
    }
}
