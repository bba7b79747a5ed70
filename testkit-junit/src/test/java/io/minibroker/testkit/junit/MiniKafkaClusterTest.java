package io.minibroker.testkit.junit;

import io.minibroker.broker.control.Controls;
import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@MiniKafka(nodes = 3,
        topics = {@MiniKafka.Topic(name = "orders", partitions = 3, replicationFactor = 3),
                  @MiniKafka.Topic(name = "defaults"),
                  @MiniKafka.Topic(name = "moves", partitions = 1, replicationFactor = 3)},
        bootstrapServersProperty = MiniKafkaClusterTest.PROPERTY)
class MiniKafkaClusterTest {

    static final String PROPERTY = "spring.kafka.bootstrap-servers";

    @Test
    void runsTheNodesAskedForAndSetsThePropertyToReachThemAll(MiniCluster cluster, @BootstrapServers String bootstrap)
            throws Exception {
        assertThat(bootstrap).isEqualTo(cluster.bootstrapServers());
        assertThat(System.getProperty(PROPERTY)).isEqualTo(bootstrap);
        assertThat(bootstrap.split(",")).hasSize(3);
        try (Admin admin = admin()) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
        }
    }

    @Test
    void topicsExistBeforeTheFirstTestWithThePartitionsAndReplicasAskedFor() throws Exception {
        try (Admin admin = admin()) {
            Map<String, TopicDescription> topics = admin.describeTopics(List.of("orders", "defaults"))
                    .allTopicNames().get(30, TimeUnit.SECONDS);

            List<TopicPartitionInfo> orders = topics.get("orders").partitions();
            assertThat(orders).hasSize(3);
            assertThat(orders).allSatisfy(partition -> {
                assertThat(partition.replicas()).hasSize(3);
                assertThat(partition.leader()).isNotNull();
            });
            // -1 for both: the broker's num.partitions and default.replication.factor, Kafka's 1 and 1.
            assertThat(topics.get("defaults").partitions()).singleElement()
                    .satisfies(partition -> assertThat(partition.replicas()).hasSize(1));
        }
    }

    @Test
    void aProducerWritesToEveryPartitionWithAllReplicasAcknowledging() throws Exception {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getProperty(PROPERTY),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
            for (int partition = 0; partition < 3; partition++) {
                RecordMetadata written = producer.send(new ProducerRecord<>("orders", partition, "k", "v"))
                        .get(30, TimeUnit.SECONDS);
                assertThat(written.offset()).isZero();
            }
        }
    }

    /**
     * On a topic of its own, empty: the producer's test writes to every partition of "orders", and once a partition
     * holds records, growing the ISR right after the leader moved would race the follower's first fetch from the new
     * leader (whichever test JUnit runs first).
     */
    @Test
    void aNodesControlsMoveALeaderAndShrinkAnIsr(MiniCluster cluster, @ControlsOf(node = 2) Controls nodeTwo)
            throws Exception {
        assertThat(nodeTwo).isSameAs(cluster.controls(2));
        cluster.moveLeader("moves", 0, 2);
        assertThat(nodeTwo.shrinkIsr("moves", 0, 1)).containsExactlyInAnyOrder(2, 0);
        assertThat(nodeTwo.growIsr("moves", 0, 1)).containsExactlyInAnyOrder(0, 1, 2);
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, System.getProperty(PROPERTY)));
    }
}
