package io.minibroker.broker.group;

import io.minibroker.broker.cluster.TopicAutoCreation;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Has {@code __consumer_offsets} created in a cluster, on the first FindCoordinator for a group, as Kafka does:
 * through {@link TopicAutoCreation}, which gives it {@code offsets.topic.num.partitions} partitions of
 * {@code offsets.topic.replication.factor} replicas and {@code cleanup.policy=compact}, off the event loops. One
 * request at a time; a controller that refuses (fewer live brokers than the replication factor) is asked again at
 * the next FindCoordinator.
 */
public final class OffsetsTopicCreator {

    private final TopicAutoCreation creation;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    public OffsetsTopicCreator(TopicAutoCreation creation) {
        this.creation = creation;
    }

    /** Asks for the topic unless a request for it is already under way; returns at once. */
    public void createIfAbsent() {
        if (inFlight.compareAndSet(false, true)) {
            creation.create(Set.of(OffsetsTopic.NAME)).whenComplete((done, failure) -> inFlight.set(false));
        }
    }
}
