package io.minibroker.broker.group;

import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks the controller to create {@code __consumer_offsets} with {@code offsets.topic.num.partitions} partitions of
 * {@code offsets.topic.replication.factor} replicas, as a CreateTopics a client sent this broker would be
 * forwarded, then fetches the new image. Kafka creates the topic on the first FindCoordinator for a group; so does
 * this broker, one request at a time, off the event loops. A controller that refuses (fewer live brokers than the
 * replication factor: INVALID_REPLICATION_FACTOR) is asked again at the next FindCoordinator.
 *
 * <p>Kafka also gives the topic {@code cleanup.policy=compact}. The cluster's metadata carries no topic configs
 * yet, so the controller would refuse them: each broker gives its copy that config when it comes to host the
 * topic ({@code TopicRegistry.adopt}).
 */
public final class OffsetsTopicCreator {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopicCreator.class);

    private final NodeChannel controller;
    private final MetadataFetcher metadata;
    private final Executor forwarding;
    private final int partitions;
    private final short replicationFactor;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    /** @param forwarding where requests to the controller wait for their answers (never an event loop) */
    public OffsetsTopicCreator(NodeChannel controller, MetadataFetcher metadata, Executor forwarding,
                               BrokerConfig config) {
        this.controller = controller;
        this.metadata = metadata;
        this.forwarding = forwarding;
        this.partitions = config.get(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS);
        this.replicationFactor = config.get(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR).shortValue();
    }

    /** Asks for the topic unless a request for it is already under way; returns at once. */
    public void createIfAbsent() {
        if (!inFlight.compareAndSet(false, true)) {
            return;
        }
        try {
            forwarding.execute(() -> {
                try {
                    create();
                } finally {
                    inFlight.set(false);
                }
            });
        } catch (RejectedExecutionException stopping) {
            inFlight.set(false);
        }
    }

    private void create() {
        Struct request = ApiKey.CREATE_TOPICS.request().newMessage();
        request.addElement("Topics").set("Name", OffsetsTopic.NAME).set("NumPartitions", partitions)
                .set("ReplicationFactor", replicationFactor);
        try {
            Struct result = controller.send(ApiKey.CREATE_TOPICS, request).getStructs("Topics").get(0);
            Errors error = Errors.forCode(result.getInt16("ErrorCode"));
            if (error == Errors.NONE) {
                LOG.info("Created {} with {} partitions of {} replicas", OffsetsTopic.NAME, partitions,
                        replicationFactor);
            } else if (error != Errors.TOPIC_ALREADY_EXISTS) {
                LOG.warn("The controller could not create {}: {} {}", OffsetsTopic.NAME, error,
                        result.getString("ErrorMessage"));
                return;
            }
            metadata.refresh();
        } catch (IOException e) {
            LOG.warn("Could not ask the controller to create {}: {}", OffsetsTopic.NAME, e.toString());
        }
    }
}
