package io.minibroker.broker.group;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.topic.TopicMetadata;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partitions' racks that go into a topic's metadata hash, as Kafka's coordinator image gives them: each replica's
 * broker's rack, fenced brokers' too, none for a broker without a rack or unknown to the image.
 */
class ReplicaRacksTest {

    private static final TopicMetadata ORDERS = new TopicMetadata("orders", UUID.randomUUID(), 3, Map.of());

    @Test
    void aClusterBrokersRacksComeFromItsImage() {
        ClusterMetadata image = new ClusterMetadata(
                List.of(new BrokerNode(0, "PLAINTEXT", "h", 1, "rack-a"), new BrokerNode(1, "PLAINTEXT", "h", 2)),
                Map.of("orders", new TopicImage("orders", ORDERS.id(), List.of(
                        new PartitionImage(1, 0, 0, List.of(2, 1, 0), List.of(0), List.of()),
                        new PartitionImage(0, 0, 0, List.of(0, 2, 9), List.of(0), List.of())))),
                List.of(new BrokerNode(2, "PLAINTEXT", "h", 3, "rack-c")));

        assertThat(ReplicaRacks.fromImage(() -> image).of(ORDERS)).as("by partition index; the third not yet known")
                .containsExactly(List.of("rack-a", "rack-c"), List.of("rack-c", "rack-a"), List.of());
        assertThat(ReplicaRacks.fromImage(ClusterMetadata::empty).of(ORDERS))
                .containsExactly(List.of(), List.of(), List.of());
    }

    @Test
    void aSingleNodeHoldsEveryReplicaOnItsOwnRack() {
        assertThat(ReplicaRacks.singleNode("rack-a").of(ORDERS))
                .containsExactly(List.of("rack-a"), List.of("rack-a"), List.of("rack-a"));
        assertThat(ReplicaRacks.singleNode(null).of(ORDERS)).containsExactly(List.of(), List.of(), List.of());
    }
}
