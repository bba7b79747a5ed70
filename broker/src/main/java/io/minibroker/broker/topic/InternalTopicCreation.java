package io.minibroker.broker.topic;

import java.util.Collection;
import java.util.Map;

/**
 * Has topics created as the broker decided them, as Kafka's AutoTopicCreationManager.createStreamsInternalTopics: a
 * streams group's repartition and changelog topics, whose partitions and configs the group coordinator worked out
 * from the group's topology. As {@link TopicAutoCreation}: asked once while a creation is under way, nobody waits.
 * A refused creation is kept ({@link TopicCreationErrors}) for the period it was asked with: the topic is not asked
 * for again until then, and the group's heartbeats name why ({@link #creationErrors}).
 */
public interface InternalTopicCreation {

    /**
     * Has these topics created on {@code client}'s account (the group member's heartbeat, as Kafka's KafkaApis passes
     * its request context), but for those whose creation is already under way or was refused less than its
     * {@code errorRetentionMs} ago; returns at once. A refusal is kept {@code errorRetentionMs}.
     */
    void createAsDecided(Collection<AutoCreatedTopic> topics, long errorRetentionMs, RequestingClient client);

    /** Why the creation of these topics was refused, by topic name, for those whose refusal is still kept. */
    Map<String, String> creationErrors(Collection<String> names);
}
