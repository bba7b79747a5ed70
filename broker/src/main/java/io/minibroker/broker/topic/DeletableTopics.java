package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.UUID;

/**
 * Topics that DeleteTopics can remove: this node's own ({@link TopicRegistry}) on a single node, the cluster's
 * (the controller's assignments) in a cluster. One request handler serves both.
 */
public interface DeletableTopics {

    Optional<UUID> idOf(String name);

    Optional<String> nameOf(UUID id);

    /** A topic's partition count, or -1 if there is no such topic: what its deletion counts against a quota. */
    int partitionCount(String name);

    /** Deletes a topic: NONE, or UNKNOWN_TOPIC_OR_PARTITION if there is none of that name, or a storage error. */
    Errors delete(String name);
}
