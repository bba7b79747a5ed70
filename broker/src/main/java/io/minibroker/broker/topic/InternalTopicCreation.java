package io.minibroker.broker.topic;

import java.util.Collection;

/**
 * Has topics created as the broker decided them, as Kafka's AutoTopicCreationManager.createStreamsInternalTopics: a
 * streams group's repartition and changelog topics, whose partitions and configs the group coordinator worked out
 * from the group's topology. As {@link TopicAutoCreation}: asked once while a creation is under way, nobody waits,
 * a failure is logged and the members' next heartbeat asks again.
 */
@FunctionalInterface
public interface InternalTopicCreation {

    /** Has these topics created, but for those whose creation is already under way; returns at once. */
    void createAsDecided(Collection<AutoCreatedTopic> topics);
}
