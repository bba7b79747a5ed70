package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;

import java.util.Map;

/**
 * What a topic created on a client's account (a Metadata request naming it, a FindCoordinator needing the offsets
 * topic) is created with, as Kafka's DefaultAutoTopicCreationManager.creatableTopic decides it, on a single node
 * and in a cluster alike: {@code __consumer_offsets} gets {@code offsets.topic.num.partitions},
 * {@code offsets.topic.replication.factor} and the configs Kafka gives it, {@code __transaction_state} its
 * {@code transaction.state.log.*} counterparts and configs, {@code __share_group_state}
 * {@code share.coordinator.state.topic.*}; any other topic {@code num.partitions}
 * and {@code default.replication.factor}, and no configs.
 */
public record AutoCreatedTopic(String name, int partitions, short replicationFactor, Map<String, String> configs) {

    public static AutoCreatedTopic of(String name, BrokerConfig config) {
        if (name.equals(InternalTopics.CONSUMER_OFFSETS)) {
            return new AutoCreatedTopic(name, config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS),
                    config.get(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR).shortValue(),
                    TopicConfig.internalTopicOverrides(name, config));
        }
        if (name.equals(InternalTopics.TRANSACTION_STATE)) {
            return new AutoCreatedTopic(name, config.get(BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS),
                    config.get(BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR).shortValue(),
                    TopicConfig.internalTopicOverrides(name, config));
        }
        if (name.equals(InternalTopics.SHARE_GROUP_STATE)) {
            return new AutoCreatedTopic(name, config.get(BrokerConfig.SHARE_COORDINATOR_STATE_TOPIC_NUM_PARTITIONS),
                    config.get(BrokerConfig.SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR).shortValue(),
                    TopicConfig.internalTopicOverrides(name, config));
        }
        return new AutoCreatedTopic(name, config.get(BrokerConfig.NUM_PARTITIONS),
                config.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR).shortValue(), Map.of());
    }
}
