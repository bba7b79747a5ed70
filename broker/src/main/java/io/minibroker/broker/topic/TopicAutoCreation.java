package io.minibroker.broker.topic;

import java.util.Collection;

/**
 * Has topics created on a client's account, as Kafka's AutoTopicCreationManager does: each with what
 * {@link AutoCreatedTopic} gives it, asked once while its creation is under way (Kafka's in-flight topics), and
 * nobody waits: the client that named it is answered at once (UNKNOWN_TOPIC_OR_PARTITION, or
 * COORDINATOR_NOT_AVAILABLE) and asks again, then finds it. A failure is only logged, as in Kafka; the client's
 * next request asks again.
 */
@FunctionalInterface
public interface TopicAutoCreation {

    /** Has these topics created, but for those whose creation is already under way; returns at once. */
    void create(Collection<String> names);
}
