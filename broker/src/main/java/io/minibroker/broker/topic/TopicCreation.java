package io.minibroker.broker.topic;

/**
 * How this broker has topics created: on a client's account with the broker's defaults ({@link TopicAutoCreation}),
 * or as the broker decided them, a streams group's internal topics ({@link InternalTopicCreation}). Locally on one
 * node ({@link LocalTopicAutoCreation}), by the controller in a cluster.
 */
public interface TopicCreation extends TopicAutoCreation, InternalTopicCreation {
}
