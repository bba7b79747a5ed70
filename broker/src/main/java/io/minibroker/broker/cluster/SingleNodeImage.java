package io.minibroker.broker.cluster;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A single node's topics as a cluster image, for the requests a cluster answers from its image: the node leads every
 * partition, its only replica, at leader epoch 0 (as its Metadata answers), and is reachable on each of its
 * listeners. Built again only when the topics ({@link TopicRegistry#version}) or the advertised listeners changed, not
 * at every request: the image has every partition of every topic.
 */
final class SingleNodeImage implements Supplier<ClusterMetadata> {

    private record Built(long topicsVersion, List<Endpoint> listeners, ClusterMetadata image) {
    }

    private final LocalNode node;
    private final TopicRegistry topics;
    private volatile Built built;

    SingleNodeImage(LocalNode node, TopicRegistry topics) {
        this.node = node;
        this.topics = topics;
    }

    @Override
    public ClusterMetadata get() {
        long version = topics.version(); // read before the topics: a change meanwhile moves it past what is kept
        List<Endpoint> listeners = node.advertisedListeners().get();
        Built last = built;
        if (last != null && last.topicsVersion() == version && last.listeners().equals(listeners)) {
            return last.image();
        }
        ClusterMetadata image = build(listeners);
        built = new Built(version, listeners, image);
        return image;
    }

    private ClusterMetadata build(List<Endpoint> listeners) {
        List<ClusterMetadata.BrokerNode> brokers = new ArrayList<>();
        for (Endpoint listener : listeners) {
            brokers.add(new ClusterMetadata.BrokerNode(node.nodeId(), listener.listenerName(), listener.host(),
                    listener.port(), node.rack()));
        }
        Map<String, TopicImage> images = new HashMap<>();
        List<Integer> self = List.of(node.nodeId());
        for (TopicMetadata topic : topics.all()) {
            List<PartitionImage> partitions = new ArrayList<>(topic.partitions());
            for (int partition = 0; partition < topic.partitions(); partition++) {
                partitions.add(new PartitionImage(partition, node.nodeId(), 0, self, self, List.of()));
            }
            images.put(topic.name(), new TopicImage(topic.name(), topic.id(), partitions));
        }
        return new ClusterMetadata(brokers, images);
    }
}
