package io.minibroker.broker.topic;

import java.util.Collection;

/**
 * Told of the topics that left the broker's metadata, as Kafka's brokers hand each deleted topic to their group
 * coordinator (BrokerMetadataPublisher, GroupCoordinator.onMetadataUpdate): a single node's DeleteTopics
 * ({@link TopicRegistry#tellDeletionsTo}), a cluster broker's image without a topic of the one before
 * (the replica manager's), whether or not it hosted a replica. Called on the thread that deleted them (a single
 * node's {@code disk-io}, a cluster broker's image thread), never an event loop: the listener must not block it.
 */
@FunctionalInterface
public interface TopicDeletionListener {

    TopicDeletionListener NONE = deleted -> { };

    /** These topics, by their names and ids at deletion, are gone; a name may already be a new topic's. */
    void onTopicsDeleted(Collection<TopicMetadata> deleted);

    /** This listener, then {@code next}: both told of every deletion (Kafka's group and share coordinators). */
    default TopicDeletionListener andThen(TopicDeletionListener next) {
        return deleted -> {
            onTopicsDeleted(deleted);
            next.onTopicsDeleted(deleted);
        };
    }
}
