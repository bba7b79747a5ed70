package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.Map;
import java.util.Optional;

/**
 * Topics whose config overrides AlterConfigs and IncrementalAlterConfigs change: this node's own
 * ({@link TopicRegistry}) on a single node, the cluster's (the controller's assignments) in a cluster. One request
 * handler serves both.
 */
public interface ConfigurableTopics {

    /** What a change answers: NONE, or Kafka's error and its message. */
    record Change(Errors error, String message) {
    }

    /** A topic's config overrides; empty if there is no such topic. */
    Optional<Map<String, String>> overrides(String topic);

    /** Checks these overrides and, unless {@code validateOnly}, makes them the topic's (all of them, replacing). */
    Change replaceOverrides(String topic, Map<String, String> overrides, boolean validateOnly);
}
