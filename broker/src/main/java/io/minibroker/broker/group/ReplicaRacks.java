package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.topic.TopicMetadata;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The racks of the brokers that hold each partition's replicas, as Kafka's group coordinator reads them from its
 * metadata image (KRaftCoordinatorMetadataImage's partitionRacks): one entry per replica whose broker is registered
 * with a {@code broker.rack}, fenced or not, in replica order; a replica whose broker has no rack, or is unknown,
 * adds nothing. They go into a subscribed topic's {@link MetadataHash}, so that a replica moved to another rack
 * rebalances a group as it does in Kafka.
 */
interface ReplicaRacks {

    /** The racks of each of the topic's partitions, by partition index, {@code topic.partitions()} lists. */
    List<List<String>> of(TopicMetadata topic);

    /**
     * What the racks are read from now: as long as it is the same object, {@link #of} answers the same for a topic of
     * the same name, id and partition count, so that {@link TopicHashCache} may keep a topic's hash. By default these
     * racks themselves, for racks that never change (a single node's {@code broker.rack}, read once at its start).
     */
    default Object source() {
        return this;
    }

    /**
     * A single node's: it holds the only replica of every partition, so each partition's racks are its own
     * {@code broker.rack}, or none.
     */
    static ReplicaRacks singleNode(String rack) {
        List<String> racks = rack == null ? List.of() : List.of(rack);
        return topic -> {
            List<List<String>> partitions = new ArrayList<>(topic.partitions());
            for (int partition = 0; partition < topic.partitions(); partition++) {
                partitions.add(racks);
            }
            return partitions;
        };
    }

    /**
     * A cluster broker's: the replicas its latest image gives the topic (looked up by name; a partition the image
     * does not have yet has none), and the racks of the brokers the image registers, live or fenced.
     */
    static ReplicaRacks fromImage(Supplier<ClusterMetadata> images) {
        return new ReplicaRacks() {
            /** The image itself: immutable, a replica moved or a broker's rack changed comes in another one. */
            @Override
            public Object source() {
                return images.get();
            }

            @Override
            public List<List<String>> of(TopicMetadata topic) {
                ClusterMetadata image = images.get();
                Map<Integer, String> rackOf = new HashMap<>();
                for (List<ClusterMetadata.BrokerNode> brokers : List.of(image.brokers(), image.fencedBrokers())) {
                    for (ClusterMetadata.BrokerNode broker : brokers) {
                        if (broker.rack() != null) {
                            rackOf.put(broker.id(), broker.rack());
                        }
                    }
                }
                List<List<String>> partitions = new ArrayList<>(topic.partitions());
                for (int partition = 0; partition < topic.partitions(); partition++) {
                    partitions.add(new ArrayList<>());
                }
                image.topic(topic.name()).ifPresent(known -> known.partitions().forEach(partition -> {
                    if (partition.index() < topic.partitions()) {
                        for (int replica : partition.replicas()) {
                            String rack = rackOf.get(replica);
                            if (rack != null) {
                                partitions.get(partition.index()).add(rack);
                            }
                        }
                    }
                }));
                return partitions;
            }
        };
    }
}
