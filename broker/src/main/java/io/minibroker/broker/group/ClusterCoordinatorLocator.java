package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.topic.TopicAutoCreation;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * FindCoordinator in a cluster, as Kafka answers it: a group's coordinator is the leader of its partition of
 * {@code __consumer_offsets} in the latest image, at that broker's endpoint on the listener the request came on.
 * The first request finds no such topic: it asks the controller to create it and answers COORDINATOR_NOT_AVAILABLE,
 * as Kafka does, and so it answers while the partition has no leader; clients retry.
 */
public final class ClusterCoordinatorLocator implements CoordinatorLocator {

    private final Supplier<ClusterMetadata> image;
    private final TopicAutoCreation creation;

    /** @param creation how the offsets topic is asked for, with its own settings and one request at a time */
    public ClusterCoordinatorLocator(Supplier<ClusterMetadata> image, TopicAutoCreation creation) {
        this.image = image;
        this.creation = creation;
    }

    @Override
    public Coordinator locate(String groupId, String listenerName) {
        ClusterMetadata current = image.get();
        Optional<TopicImage> topic = current.topic(OffsetsTopic.NAME);
        if (topic.isEmpty()) {
            creation.create(Set.of(OffsetsTopic.NAME)); // answered whatever comes of it: the client retries
            return Coordinator.notAvailable();
        }
        PartitionImage partition = topic.get().partitions()
                .get(OffsetsTopic.partitionFor(groupId, topic.get().partitions().size()));
        return current.brokers(listenerName).stream()
                .filter(broker -> broker.id() == partition.leader())
                .findFirst()
                .map(ClusterCoordinatorLocator::at)
                .orElseGet(Coordinator::notAvailable); // no leader, or the leader has no such listener
    }

    private static Coordinator at(BrokerNode broker) {
        return new Coordinator(Errors.NONE, broker.id(), broker.host(), broker.port());
    }
}
