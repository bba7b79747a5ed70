package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.topic.TopicMetadata;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A topic's hash is computed once per change of the topic or of its replicas' racks, whichever group asks, and is
 * always the one {@link MetadataHash#ofTopic} computes from the topic and its racks as they are. Computations are
 * counted as the racks the cache reads: one read per hash computed.
 */
class TopicHashCacheTest {

    private static final TopicMetadata ORDERS = new TopicMetadata("orders", UUID.randomUUID(), 2, Map.of());
    private static final TopicMetadata PAYMENTS = new TopicMetadata("payments", UUID.randomUUID(), 1, Map.of());

    private final Map<String, TopicMetadata> topics = new HashMap<>();

    @Test
    void aTopicsHashIsComputedOnceWhileNothingChanges() {
        CountingRacks racks = new CountingRacks(ReplicaRacks.singleNode("rack-a"));
        TopicHashCache hashes = cacheOf(racks, ORDERS, PAYMENTS);

        long orders = hashes.of(ORDERS);
        for (int heartbeat = 0; heartbeat < 5; heartbeat++) {
            assertThat(hashes.of(ORDERS)).isEqualTo(orders);
            hashes.ofTopicNames(new TreeSet<>(List.of("orders", "payments")));
        }

        assertThat(orders).isEqualTo(MetadataHash.ofTopic(ORDERS, ReplicaRacks.singleNode("rack-a").of(ORDERS)));
        assertThat(racks.computed).as("once per topic, shared by every group that asks").isEqualTo(2);
    }

    @Test
    void partitionsAddedComputeItAgain() {
        ReplicaRacks rackA = ReplicaRacks.singleNode("rack-a");
        CountingRacks racks = new CountingRacks(rackA);
        TopicHashCache hashes = cacheOf(racks, ORDERS);
        long before = hashes.of(ORDERS);

        TopicMetadata grown = new TopicMetadata("orders", ORDERS.id(), 5, Map.of());
        topics.put("orders", grown);
        long group = hashes.ofTopicNames(new TreeSet<>(List.of("orders")));

        assertThat(hashes.of(grown)).isNotEqualTo(before).isEqualTo(MetadataHash.ofTopic(grown, rackA.of(grown)));
        assertThat(group).as("the group's hash over the grown topic").isEqualTo(MetadataHash.ofGroup(List.of(
                new ConsumerGroup.SubscribedTopic(grown.id(), "orders", 5, hashes.of(grown)))));
        assertThat(racks.computed).isEqualTo(2);
    }

    @Test
    void aTopicDeletedAndCreatedAgainUnderItsNameIsHashedAgain() {
        CountingRacks racks = new CountingRacks(ReplicaRacks.singleNode(null));
        TopicHashCache hashes = cacheOf(racks, ORDERS);
        long before = hashes.of(ORDERS);

        TopicMetadata recreated = new TopicMetadata("orders", UUID.randomUUID(), 2, Map.of());
        long after = hashes.of(recreated);

        assertThat(after).isNotEqualTo(before)
                .isEqualTo(MetadataHash.ofTopic(recreated, ReplicaRacks.singleNode(null).of(recreated)));
        assertThat(racks.computed).isEqualTo(2);
        assertThat(hashes.of(recreated)).isEqualTo(after);
        assertThat(racks.computed).isEqualTo(2);
    }

    @Test
    void aNewImageWithAReplicasRackChangedComputesItAgain() {
        AtomicReference<ClusterMetadata> image = new AtomicReference<>(imageWithRackOfBroker1("rack-b"));
        CountingRacks racks = new CountingRacks(ReplicaRacks.fromImage(image::get));
        TopicHashCache hashes = cacheOf(racks, ORDERS);
        long before = hashes.of(ORDERS);
        hashes.of(ORDERS);
        assertThat(racks.computed).as("the same image").isEqualTo(1);

        image.set(imageWithRackOfBroker1("rack-c"));
        long after = hashes.of(ORDERS);

        assertThat(after).as("racks count in the hash").isNotEqualTo(before)
                .isEqualTo(MetadataHash.ofTopic(ORDERS, List.of(List.of("rack-a", "rack-c"), List.of("rack-c"))));
        assertThat(before)
                .isEqualTo(MetadataHash.ofTopic(ORDERS, List.of(List.of("rack-a", "rack-b"), List.of("rack-b"))));
        hashes.of(ORDERS);
        assertThat(racks.computed).isEqualTo(2);

        image.set(imageWithRackOfBroker1("rack-c"));
        assertThat(hashes.of(ORDERS)).as("any newer image computes it again, to the same value").isEqualTo(after);
        assertThat(racks.computed).isEqualTo(3);
    }

    @Test
    void aDeletedTopicsHashIsForgottenButNotThatOfOneCreatedAgainUnderItsName() {
        CountingRacks racks = new CountingRacks(ReplicaRacks.singleNode("rack-a"));
        TopicHashCache hashes = cacheOf(racks, ORDERS, PAYMENTS);
        hashes.of(ORDERS);
        hashes.of(PAYMENTS);

        hashes.forget(List.of(ORDERS, new TopicMetadata("payments", UUID.randomUUID(), 1, Map.of())));
        hashes.of(ORDERS);
        hashes.of(PAYMENTS);

        assertThat(racks.computed).as("orders computed again, payments kept").isEqualTo(3);
    }

    /** Brokers 0 (rack-a) and 1 (the rack given); orders' partition 0 on both, partition 1 on broker 1. */
    private static ClusterMetadata imageWithRackOfBroker1(String rack) {
        return new ClusterMetadata(
                List.of(new BrokerNode(0, "PLAINTEXT", "h", 1, "rack-a"), new BrokerNode(1, "PLAINTEXT", "h", 2, rack)),
                Map.of("orders", new TopicImage("orders", ORDERS.id(), List.of(
                        new PartitionImage(0, 0, 0, List.of(0, 1), List.of(0, 1), List.of()),
                        new PartitionImage(1, 1, 0, List.of(1), List.of(1), List.of())))),
                List.of());
    }

    private TopicHashCache cacheOf(ReplicaRacks racks, TopicMetadata... known) {
        for (TopicMetadata topic : known) {
            topics.put(topic.name(), topic);
        }
        return new TopicHashCache(name -> Optional.ofNullable(topics.get(name)), racks);
    }

    /** The racks, counting their reads: the cache reads a topic's racks only to compute its hash. */
    private static final class CountingRacks implements ReplicaRacks {

        private final ReplicaRacks racks;
        private int computed;

        CountingRacks(ReplicaRacks racks) {
            this.racks = racks;
        }

        @Override
        public Object source() {
            return racks.source();
        }

        @Override
        public List<List<String>> of(TopicMetadata topic) {
            computed++;
            return racks.of(topic);
        }
    }
}
