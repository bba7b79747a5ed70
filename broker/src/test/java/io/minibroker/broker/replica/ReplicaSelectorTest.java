package io.minibroker.broker.replica;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.replica.ClientMetadata;
import org.apache.kafka.common.replica.PartitionView;
import org.apache.kafka.common.replica.RackAwareReplicaSelector;
import org.apache.kafka.common.replica.ReplicaView.DefaultReplicaView;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code replica.selector.class}: Kafka's RackAwareReplicaSelector known by name and choosing as Kafka 4.3.1's does
 * (checked against it over random partitions: same rack, the leader first, then the greatest log end, the most
 * recently caught up, the greatest id), no class the leader, and any other name refused at the start.
 */
class ReplicaSelectorTest {

    private static final String RACK_AWARE = "org.apache.kafka.common.replica.RackAwareReplicaSelector";

    @Test
    void choosesAsKafkasRackAwareReplicaSelector() throws Exception {
        RackAwareReplicaSelector kafkas = new RackAwareReplicaSelector();
        Random random = new Random(11);
        for (int round = 0; round < 2_000; round++) {
            List<ReplicaSelector.ReplicaView> ours = new ArrayList<>();
            Set<org.apache.kafka.common.replica.ReplicaView> theirs = new HashSet<>();
            DefaultReplicaView kafkaLeader = null;
            int replicas = 1 + random.nextInt(5);
            for (int id = 0; id < replicas; id++) {
                String rack = random.nextInt(4) == 0 ? null : "rack-" + random.nextInt(3);
                long logEnd = id == 0 ? 100 : 95 + random.nextInt(6);
                long lag = id == 0 ? 0 : random.nextInt(3) * 100L;
                ours.add(new ReplicaSelector.ReplicaView(id, rack, logEnd, lag));
                DefaultReplicaView view = new DefaultReplicaView(new Node(id, "host" + id, 9092, rack), logEnd, lag);
                theirs.add(view);
                if (id == 0) {
                    kafkaLeader = view;
                }
            }
            String clientRack = List.of("", "rack-0", "rack-1", "rack-2", "rack-9").get(random.nextInt(5));
            ClientMetadata client = new ClientMetadata.DefaultClientMetadata(clientRack, "c",
                    InetAddress.getLoopbackAddress(), KafkaPrincipal.ANONYMOUS, "PLAINTEXT");
            int expected = kafkas.select(new TopicPartition("t", 0), client,
                    new PartitionView.DefaultPartitionView(theirs, kafkaLeader)).orElseThrow().endpoint().id();

            assertThat(ReplicaSelector.RACK_AWARE.select(clientRack, ours.get(0), ours).id())
                    .as("client rack '%s' over %s", clientRack, ours).isEqualTo(expected);
            assertThat(ReplicaSelector.LEADER.select(clientRack, ours.get(0), ours).id()).isZero();
        }
    }

    @Test
    void knowsKafkasRackAwareSelectorByNameAndRefusesAnyOther() {
        assertThat(BrokerConfig.of(Map.of()).get(BrokerConfig.REPLICA_SELECTOR_CLASS)).isNull();
        assertThat(ReplicaSelector.named(null)).isEqualTo(ReplicaSelector.LEADER);
        assertThat(ReplicaSelector.named(BrokerConfig.of(Map.of("replica.selector.class", " " + RACK_AWARE + " "))
                .get(BrokerConfig.REPLICA_SELECTOR_CLASS))).isEqualTo(ReplicaSelector.RACK_AWARE);
        // Kafka 4.3.1 ships no LeaderSelector: its broker would fail to load the class, as any other unknown one.
        for (String other : List.of("org.apache.kafka.common.replica.LeaderSelector", "com.example.MySelector", "")) {
            assertThatThrownBy(() -> BrokerConfig.of(Map.of("replica.selector.class", other)))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("replica.selector.class")
                    .hasMessageContaining(RACK_AWARE);
        }
    }
}
