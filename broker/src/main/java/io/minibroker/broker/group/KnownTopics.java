package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The topics OffsetCommit and OffsetFetch check partitions against, as Kafka checks them against its metadata
 * cache: on a single node the broker's own; in a cluster every topic of the latest image, since the coordinator
 * of a group need not host the topics its consumers read.
 */
public interface KnownTopics {

    Optional<TopicMetadata> byName(String name);

    Optional<TopicMetadata> byId(UUID id);

    /** The topics of this broker (a single node). */
    static KnownTopics local(TopicRegistry topics) {
        return new KnownTopics() {
            @Override
            public Optional<TopicMetadata> byName(String name) {
                return topics.get(name);
            }

            @Override
            public Optional<TopicMetadata> byId(UUID id) {
                return topics.get(id);
            }
        };
    }

    /** The topics of the cluster's latest image. */
    static KnownTopics cluster(Supplier<ClusterMetadata> image) {
        return new KnownTopics() {
            @Override
            public Optional<TopicMetadata> byName(String name) {
                return image.get().topic(name).map(KnownTopics::metadata);
            }

            @Override
            public Optional<TopicMetadata> byId(UUID id) {
                return image.get().topic(id).map(KnownTopics::metadata);
            }
        };
    }

    private static TopicMetadata metadata(TopicImage topic) {
        return new TopicMetadata(topic.name(), topic.id(), topic.partitions().size(), Map.of());
    }
}
