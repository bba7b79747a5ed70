package io.minibroker.broker.cluster;

import io.minibroker.broker.api.BrokerDirectory;
import io.minibroker.broker.api.ConfigResources;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataResponseView;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Keeps this broker's copy of the cluster metadata: fetches the controller's whole image (a Metadata request on
 * the controller's listener, then a DescribeConfigs of its topics for their config overrides, which Metadata does
 * not carry) and installs it. Fetches are serialised on one connection and each answer is an
 * image the controller took after the previous one, so a broker's image only ever moves forward, through the
 * controller's changes in their order. Called after every heartbeat and right after a change this broker asked
 * for (a forwarded admin request), so that its own client sees the change at once. A config change that lands
 * between the two requests of a fetch is seen at the next one.
 */
public final class MetadataFetcher implements BrokerDirectory, AutoCloseable {

    private final NodeChannel controller;
    private final String interBrokerListener;
    private final Consumer<ClusterMetadata> onImage;
    private volatile ClusterMetadata current;

    /**
     * @param interBrokerListener the listener whose endpoints {@code onImage} is given: replica fetchers connect
     *                            to a leader there, never at the address a client was told
     * @param onImage             given each image fetched, in order, before any later one
     */
    public MetadataFetcher(NodeChannel controller, int controllerId, String interBrokerListener,
                           Consumer<ClusterMetadata> onImage) {
        this.controller = controller;
        this.interBrokerListener = interBrokerListener;
        this.onImage = onImage;
        this.current = ClusterMetadata.empty(controllerId);
    }

    /** The latest image fetched (an empty one before the first fetch). */
    public ClusterMetadata current() {
        return current;
    }

    /** Fetches and installs the controller's image now. */
    public synchronized void refresh() throws IOException {
        MetadataResponseView response = new MetadataResponseView(controller.send(ApiKey.METADATA,
                ApiKey.METADATA.request().newMessage().set("Topics", null)));
        ClusterMetadata image = ClusterMetadata.from(response);
        if (!image.topics().isEmpty()) {
            image = image.withTopicConfigs(fetchTopicConfigs(image.topics().keySet()));
        }
        onImage.accept(image.forListener(interBrokerListener)); // hosts the image's partitions before clients are told of them
        current = image;
    }

    /** Each topic's config overrides, as the controller lists them: the configs whose source is the topic. */
    private Map<String, Map<String, String>> fetchTopicConfigs(Collection<String> topics) throws IOException {
        Struct request = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
        for (String topic : topics) {
            request.addElement("Resources").set("ResourceType", ConfigResources.TOPIC).set("ResourceName", topic)
                    .set("ConfigurationKeys", null);
        }
        Map<String, Map<String, String>> configs = new HashMap<>();
        for (Struct result : controller.send(ApiKey.DESCRIBE_CONFIGS, request).getStructs("Results")) {
            if (result.getInt16("ErrorCode") != Errors.NONE.code()) {
                continue; // deleted since the Metadata answer: the next fetch has it gone
            }
            Map<String, String> overrides = new HashMap<>();
            for (Struct config : result.getStructs("Configs")) {
                if ((Byte) config.get("ConfigSource") == ConfigResources.DYNAMIC_TOPIC_CONFIG) {
                    overrides.put(config.getString("Name"), config.getString("Value"));
                }
            }
            configs.put(result.getString("ResourceName"), overrides);
        }
        return configs;
    }

    @Override
    public int controllerId() {
        return current.controllerId();
    }

    /** The brokers of the image at their endpoints on the listener the request came on, as in Kafka. */
    @Override
    public List<ListedBroker> brokers(String listenerName) {
        return current.brokers(listenerName).stream().map(b -> new ListedBroker(b.id(), b.host(), b.port())).toList();
    }

    @Override
    public void close() {
        controller.close();
    }
}
