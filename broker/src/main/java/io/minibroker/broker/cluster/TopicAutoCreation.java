package io.minibroker.broker.cluster;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * Topic auto-creation on a broker in a cluster ({@code auto.create.topics.enable}), as Kafka's
 * AutoTopicCreationManager does it: the broker asks the controller for a CreateTopics with its own
 * {@code num.partitions} and {@code default.replication.factor}. What the controller answers is only logged: a
 * client that named the topic is told LEADER_NOT_AVAILABLE either way and asks again, then finds the topic, or,
 * if it could not be created (too few live brokers for the replication factor), is told LEADER_NOT_AVAILABLE
 * again until its own timeout.
 */
public final class TopicAutoCreation {

    private static final Logger LOG = LoggerFactory.getLogger(TopicAutoCreation.class);

    private final ControllerForwarder controller;
    private final int partitions;
    private final short replicationFactor;

    public TopicAutoCreation(ControllerForwarder controller, int partitions, int replicationFactor) {
        this.controller = controller;
        this.partitions = partitions;
        this.replicationFactor = (short) replicationFactor;
    }

    /** Has the controller create these topics; completes once this broker has the image that follows. */
    public CompletableFuture<Void> create(Collection<String> names) {
        Struct request = ApiKey.CREATE_TOPICS.request().newMessage();
        for (String name : names) {
            request.addElement("Topics").set("Name", name).set("NumPartitions", partitions)
                    .set("ReplicationFactor", replicationFactor);
        }
        return controller.forward(ApiKey.CREATE_TOPICS, ApiKey.CREATE_TOPICS.highestStableVersion(), request)
                .handle((response, failure) -> {
                    if (failure != null) {
                        LOG.warn("Could not auto-create {}: {}", names, failure.getCause());
                        return null;
                    }
                    for (Struct topic : response.getStructs("Topics")) {
                        Errors error = Errors.forCode(topic.getInt16("ErrorCode"));
                        if (error != Errors.NONE && error != Errors.TOPIC_ALREADY_EXISTS) {
                            LOG.warn("Could not auto-create topic {}: {} {}", topic.getString("Name"), error,
                                    topic.getString("ErrorMessage"));
                        } else if (error == Errors.NONE) {
                            LOG.info("Auto-created topic {}", topic.getString("Name"));
                        }
                    }
                    return null;
                });
    }
}
