package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ControllerForwarder;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks the controller to create {@code __consumer_offsets} with {@code offsets.topic.num.partitions} partitions of
 * {@code offsets.topic.replication.factor} replicas and the configs Kafka gives it ({@code cleanup.policy=compact}),
 * through the same forwarding as a client's CreateTopics, so this broker has the new image when it completes.
 * Kafka creates the topic on the first FindCoordinator for a group; so does this broker, one request at a time,
 * off the event loops. A controller that refuses (fewer live brokers than the replication factor:
 * INVALID_REPLICATION_FACTOR) is asked again at the next FindCoordinator.
 */
public final class OffsetsTopicCreator {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopicCreator.class);

    private final ControllerForwarder controller;
    private final int partitions;
    private final short replicationFactor;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    public OffsetsTopicCreator(ControllerForwarder controller, BrokerConfig config) {
        this.controller = controller;
        this.partitions = config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS);
        this.replicationFactor = config.get(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR).shortValue();
    }

    /** Asks for the topic unless a request for it is already under way; returns at once. */
    public void createIfAbsent() {
        if (!inFlight.compareAndSet(false, true)) {
            return;
        }
        Struct request = ApiKey.CREATE_TOPICS.request().newMessage();
        Struct topic = request.addElement("Topics").set("Name", OffsetsTopic.NAME).set("NumPartitions", partitions)
                .set("ReplicationFactor", replicationFactor);
        for (Map.Entry<String, String> config : TopicConfig.internalTopicOverrides(OffsetsTopic.NAME).entrySet()) {
            topic.addElement("Configs").set("Name", config.getKey()).set("Value", config.getValue());
        }
        controller.forward(ApiKey.CREATE_TOPICS, ApiKey.CREATE_TOPICS.highestStableVersion(), request)
                .whenComplete((response, failure) -> {
                    inFlight.set(false);
                    if (failure != null) {
                        LOG.warn("Could not ask the controller to create {}: {}", OffsetsTopic.NAME,
                                failure.getCause());
                        return;
                    }
                    Struct result = response.getStructs("Topics").get(0);
                    Errors error = Errors.forCode(result.getInt16("ErrorCode"));
                    if (error == Errors.NONE) {
                        LOG.info("Created {} with {} partitions of {} replicas", OffsetsTopic.NAME, partitions,
                                replicationFactor);
                    } else if (error != Errors.TOPIC_ALREADY_EXISTS) {
                        LOG.warn("The controller could not create {}: {} {}", OffsetsTopic.NAME, error,
                                result.getString("ErrorMessage"));
                    }
                });
    }
}
