package io.minibroker.broker.cluster;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.MetadataResponseView;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client is never sent to a leader the image has no live endpoint for: as Kafka's KRaftMetadataCache, such a
 * partition is answered without a leader, LEADER_NOT_AVAILABLE; the image the brokers fetch keeps the leader.
 */
class ClusterMetadataLeaderTest {

    private static final TopicImage TOPIC = new TopicImage("t", UUID.randomUUID(), List.of(
            new PartitionImage(0, 0, 3, List.of(0, 1), List.of(0, 1), List.of()),
            new PartitionImage(1, 1, 4, List.of(1, 0), List.of(1, 0), List.of(1))));
    /** Node 1 is fenced: the controller lists only node 0, which has no SSL listener. */
    private static final ClusterMetadata IMAGE = new ClusterMetadata(List.of(new BrokerNode(0, "PLAINTEXT", "localhost", 9092)), Map.of("t", TOPIC));

    @Test
    void answersNoLeaderForAPartitionWhoseLeaderIsNotLive() {
        MetadataResponseView response = new MetadataResponseView();
        ClusterMetadata.describe(TOPIC, response.addTopic(), IMAGE.reachableOn("PLAINTEXT"));

        List<MetadataResponseView.MetadataResponsePartition> partitions = response.topics().get(0).partitions();
        assertThat(partitions.get(0).leaderId()).isEqualTo(0);
        assertThat(partitions.get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(partitions.get(1).leaderId()).isEqualTo(-1);
        assertThat(partitions.get(1).leaderEpoch()).isEqualTo(4);
        assertThat(partitions.get(1).errorCode()).isEqualTo(Errors.LEADER_NOT_AVAILABLE.code());
        assertThat(partitions.get(1).replicaNodes()).containsExactly(1, 0);
    }

    @Test
    void answersNoLeaderWhenTheLeaderHasNoEndpointOnTheClientsListener() {
        MetadataResponseView response = new MetadataResponseView();
        ClusterMetadata.describe(TOPIC, response.addTopic(), IMAGE.reachableOn("SSL"));

        assertThat(response.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.LEADER_NOT_AVAILABLE.code());
    }

    @Test
    void theImageForBrokersKeepsTheLeader() {
        MetadataResponseView response = new MetadataResponseView();
        ClusterMetadata.describe(TOPIC, response.addTopic());

        assertThat(response.topics().get(0).partitions().get(1).leaderId()).isEqualTo(1);
    }
}
