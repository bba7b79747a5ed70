package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.group.CoordinatorLocator.Coordinator;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The leaders of a coordinators' topic's partitions in a cluster ({@code __consumer_offsets}',
 * {@code __transaction_state}'s, {@code __share_group_state}'s), from the latest image: a key's coordinator is the
 * leader of its partition (Kafka's partitionFor, {@link InternalTopics#partitionFor} for groups, transactional ids
 * and share partitions' keys alike), at that broker's endpoint on the listener the request came on.
 */
public final class ClusterOffsetsTopicLeaders implements CoordinatorLocator.OffsetsTopicLeaders {

    private final Supplier<ClusterMetadata> image;
    private final String topicName;

    /** The leaders of {@code __consumer_offsets}' partitions. */
    public ClusterOffsetsTopicLeaders(Supplier<ClusterMetadata> image) {
        this(image, OffsetsTopic.NAME);
    }

    /** The leaders of {@code topicName}'s partitions. */
    public ClusterOffsetsTopicLeaders(Supplier<ClusterMetadata> image, String topicName) {
        this.image = image;
        this.topicName = topicName;
    }

    /** A key's partition's leader: its id (-1 while it has none) and its endpoint on a listener, or an error. */
    public record Leader(int id, Coordinator coordinator) {
    }

    @Override
    public Optional<Coordinator> leaderFor(String key, String listenerName) {
        return leader(key, listenerName).map(Leader::coordinator);
    }

    /**
     * The leader of the key's partition, its id and its endpoint on {@code listenerName} taken from one image (so
     * they agree though a newer image may come between two looks), or empty while the topic does not exist.
     */
    public Optional<Leader> leader(String key, String listenerName) {
        ClusterMetadata current = image.get();
        return current.topic(topicName).map(topic -> new Leader(partitionOf(key, topic).leader(),
                leaderFor(key, listenerName, current, topic)));
    }

    private static PartitionImage partitionOf(String key, TopicImage topic) {
        return topic.partitions().get(InternalTopics.partitionFor(key, topic.partitions().size()));
    }

    private static Coordinator leaderFor(String key, String listenerName, ClusterMetadata current,
                                         TopicImage topic) {
        PartitionImage partition = partitionOf(key, topic);
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
