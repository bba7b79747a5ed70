package io.minibroker.broker.cluster;

import io.minibroker.broker.api.BrokerDirectory;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataResponseView;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps this broker's copy of the cluster metadata: fetches the controller's whole image (a Metadata request on
 * the controller's listener) and installs it. Fetches are serialised on one connection and each answer is an
 * image the controller took after the previous one, so a broker's image only ever moves forward, through the
 * controller's changes in their order. Called after every heartbeat and right after a change this broker asked
 * for (a forwarded CreateTopics), so that its own client sees the change at once.
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
        onImage.accept(image.forListener(interBrokerListener)); // hosts the image's partitions before clients are told of them
        current = image;
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
