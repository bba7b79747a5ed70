package io.minibroker.broker.cluster;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Topics a broker in a cluster has the controller create on its own account, as Kafka's AutoTopicCreationManager
 * does: a topic a Metadata request names ({@code auto.create.topics.enable}) with this broker's
 * {@code num.partitions} and {@code default.replication.factor}, and {@code __consumer_offsets}, whoever asks for
 * it first (a FindCoordinator, or a Metadata request naming it), with {@code offsets.topic.num.partitions},
 * {@code offsets.topic.replication.factor} and the configs Kafka gives it. Nobody waits for it and what the
 * controller answers is only logged, as in Kafka: a client that named the topic is told UNKNOWN_TOPIC_OR_PARTITION
 * (or COORDINATOR_NOT_AVAILABLE) at once and asks again, then finds the topic, or, if it could not be created (too
 * few live brokers for the replication factor), is told so again until its own timeout. A topic already being created is not asked for again (Kafka's
 * inflight topics), so a client retrying it adds nothing to the controller's queue.
 */
public final class TopicAutoCreation {

    private static final Logger LOG = LoggerFactory.getLogger(TopicAutoCreation.class);

    private final ControllerForwarder controller;
    private final int partitions;
    private final short replicationFactor;
    private final int offsetsPartitions;
    private final short offsetsReplicationFactor;
    private final Map<String, String> offsetsConfigs;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    public TopicAutoCreation(ControllerForwarder controller, BrokerConfig config) {
        this.controller = controller;
        this.partitions = config.get(BrokerConfig.NUM_PARTITIONS);
        this.replicationFactor = config.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR).shortValue();
        this.offsetsPartitions = config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS);
        this.offsetsReplicationFactor = config.get(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR).shortValue();
        this.offsetsConfigs = TopicConfig.internalTopicOverrides(InternalTopics.CONSUMER_OFFSETS, config);
    }

    /** Has the controller create these topics, but for those whose creation is already under way; returns at once. */
    public void create(Collection<String> names) {
        List<String> asked = names.stream().filter(inFlight::add).toList();
        if (asked.isEmpty()) {
            return;
        }
        Struct request = ApiKey.CREATE_TOPICS.request().newMessage();
        for (String name : asked) {
            boolean offsets = name.equals(InternalTopics.CONSUMER_OFFSETS);
            Struct topic = request.addElement("Topics").set("Name", name)
                    .set("NumPartitions", offsets ? offsetsPartitions : partitions)
                    .set("ReplicationFactor", offsets ? offsetsReplicationFactor : replicationFactor);
            if (offsets) {
                for (Map.Entry<String, String> config : offsetsConfigs.entrySet()) {
                    topic.addElement("Configs").set("Name", config.getKey()).set("Value", config.getValue());
                }
            }
        }
        controller.forward(ApiKey.CREATE_TOPICS, ApiKey.CREATE_TOPICS.highestStableVersion(), request)
                .whenComplete((response, failure) -> {
                    asked.forEach(inFlight::remove);
                    if (failure != null) {
                        LOG.warn("Could not have {} created: {}", asked, failure.getCause());
                        return;
                    }
                    for (Struct topic : response.getStructs("Topics")) {
                        Errors error = Errors.forCode(topic.getInt16("ErrorCode"));
                        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
                            LOG.warn("Could not have topic {} created: {} {}", topic.getString("Name"), error,
                                    topic.getString("ErrorMessage"));
                        } else if (error == Errors.NONE) {
                            LOG.info("Created topic {}", topic.getString("Name"));
                        }
                    }
                });
    }
}
