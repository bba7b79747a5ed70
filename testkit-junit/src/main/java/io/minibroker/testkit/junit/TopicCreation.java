package io.minibroker.testkit.junit;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.server.MetadataRoundTrip;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Creates {@link MiniKafka#topics} over the wire, as a test's admin client would, and returns once every node's
 * Metadata shows each of them with a leader for every partition: a test's first produce then finds them on
 * whichever node it asks, instead of retrying through UNKNOWN_TOPIC_OR_PARTITION or LEADER_NOT_AVAILABLE. For a
 * cluster, first waits until the cluster has formed.
 */
final class TopicCreation {

    private static final short CREATE_TOPICS_VERSION = 7;
    private static final short METADATA_VERSION = 12;
    private static final String CLIENT_ID = "minibroker-junit";
    private static final int SOCKET_TIMEOUT_MS = 10_000;
    private static final Duration PROPAGATION_TIMEOUT = Duration.ofSeconds(30);

    private TopicCreation() {
    }

    /** @param bootstrapServers every node's {@code host:port}, comma-separated; the first is asked to create */
    static void create(String bootstrapServers, List<MiniKafka.Topic> topics) throws IOException, InterruptedException {
        if (topics.isEmpty()) {
            return;
        }
        List<String> nodes = List.of(bootstrapServers.split(","));
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(SOCKET_TIMEOUT_MS);
        for (MiniKafka.Topic topic : topics) {
            request.addTopic().name(topic.name()).numPartitions(topic.partitions())
                    .replicationFactor(topic.replicationFactor());
        }
        CreateTopicsResponseView response;
        try (NodeChannel channel = channel(nodes.get(0))) {
            response = new CreateTopicsResponseView(channel.send(ApiKey.CREATE_TOPICS, CREATE_TOPICS_VERSION,
                    request.struct()));
        }
        for (CreateTopicsResponseView.CreatableTopicResult result : response.topics()) {
            if (result.errorCode() != Errors.NONE.code()) {
                throw new ExtensionConfigurationException("@MiniKafka could not create topic '" + result.name()
                        + "': " + Errors.forCode(result.errorCode()) + " " + result.errorMessage());
            }
        }
        for (String node : nodes) {
            Polling.until(() -> leadersKnown(node, topics), PROPAGATION_TIMEOUT,
                    "a leader for every partition of " + names(topics) + " on " + node);
        }
    }

    /**
     * Waits until every node lists every node in its Metadata: all have registered with the controller, and each
     * has the controller's image of them all. Before that a topic with a replication factor of the cluster's size
     * is refused (INVALID_REPLICATION_FACTOR), and a client may be told of fewer nodes than the test started.
     */
    static void awaitEveryNodeListed(String bootstrapServers) throws InterruptedException {
        List<String> nodes = List.of(bootstrapServers.split(","));
        for (String node : nodes) {
            int colon = node.lastIndexOf(':');
            Polling.until(() -> MetadataRoundTrip.advertisedBrokers(node.substring(0, colon),
                    Integer.parseInt(node.substring(colon + 1))).containsAll(nodes), PROPAGATION_TIMEOUT,
                    node + " listing every node of " + nodes);
        }
    }

    private static List<String> names(List<MiniKafka.Topic> topics) {
        return topics.stream().map(MiniKafka.Topic::name).toList();
    }

    private static boolean leadersKnown(String node, List<MiniKafka.Topic> topics) throws IOException {
        MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(false);
        topics.forEach(topic -> request.addTopic().name(topic.name()));
        MetadataResponseView response;
        try (NodeChannel channel = channel(node)) {
            response = new MetadataResponseView(channel.send(ApiKey.METADATA, METADATA_VERSION, request.struct()));
        }
        return response.topics().size() == topics.size() && response.topics().stream().allMatch(topic -> topic.errorCode() == Errors.NONE.code()
                && !topic.partitions().isEmpty()
                && topic.partitions().stream().allMatch(partition -> partition.leaderId() >= 0));
    }

    private static NodeChannel channel(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        return new NodeChannel(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)),
                CLIENT_ID, SOCKET_TIMEOUT_MS);
    }
}
