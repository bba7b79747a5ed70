package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.ReadFromStart;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Partition reassignment in a three-node cluster, as Kafka's KRaft controller runs it: the controller adds the
 * target's newcomers to the replicas (adding / removing), they fetch, and once they are in the ISR the partition
 * moves to the target, its leader re-elected if the old one leaves; the replicas removed stop and delete their logs.
 * A move that cannot complete (its newcomer is down) is listed, cancelled back, and outlives a controller restart.
 * Every record acknowledged before, during and after a move is read back from the new replicas.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PartitionReassignmentTest {

    private MiniCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100", "replica.lag.time.max.ms", "3000",
                "replica.fetch.wait.max.ms", "100"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
    }

    @Test
    void aPartitionMovesToItsTargetAndTheReplicaLeftBehindDeletesItsLog() throws Exception {
        start();
        TopicPartition partition = new TopicPartition("moving", 0);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("moving", Map.of(0, List.of(0))))).all().get();
            produce("moving", 0, 50);
            int epochBefore = controllerImage("moving").leaderEpoch();

            admin.alterPartitionReassignments(Map.of(partition,
                    Optional.of(new NewPartitionReassignment(List.of(1, 2))))).all().get();

            await(() -> controllerImage("moving").replicas().equals(List.of(1, 2)), "the move to nodes 1 and 2");
            PartitionImage moved = controllerImage("moving");
            assertThat(moved.reassigning()).isFalse();
            assertThat(moved.isr()).containsExactlyInAnyOrder(1, 2);
            assertThat(moved.leader()).as("the old leader left: the target's first replica leads").isEqualTo(1);
            assertThat(moved.leaderEpoch()).isGreaterThan(epochBefore);
            assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
            await(() -> !Files.exists(cluster.logDir(0).resolve("moving-0")), "node 0 to delete its log");
            await(() -> replicasSeenByClients(admin, "moving").equals(List.of(1, 2)), "every broker's image");
        }
        produce("moving", 50, 100);
        assertThat(ReadFromStart.values(cluster.bootstrapServers(), partition, 100, Duration.ofSeconds(30)))
                .isEqualTo(values(0, 100));
    }

    @Test
    void aMoveInProgressIsListedCancelledBackAndOutlivesAControllerRestart() throws Exception {
        start();
        TopicPartition partition = new TopicPartition("held", 0);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("held", Map.of(0, List.of(1, 0))))).all().get();
            await(() -> controllerImage("held").isr().size() == 2, "both replicas in sync");
            produce("held", 0, 20);
        }
        cluster.stop(2); // registered, fenced: a newcomer that cannot catch up
        try (Admin admin = admin()) {
            admin.alterPartitionReassignments(Map.of(partition,
                    Optional.of(new NewPartitionReassignment(List.of(1, 2))))).all().get();

            PartitionReassignment ongoing = admin.listPartitionReassignments().reassignments().get().get(partition);
            assertThat(ongoing.replicas()).as("the target, then the replica leaving").containsExactly(1, 2, 0);
            assertThat(ongoing.addingReplicas()).containsExactly(2);
            assertThat(ongoing.removingReplicas()).containsExactly(0);
            await(() -> replicasSeenByClients(admin, "held").equals(List.of(1, 2, 0)),
                    "clients to see every replica of the move, as Kafka's Metadata shows them");

            admin.alterPartitionReassignments(Map.of(partition, Optional.empty())).all().get();
            PartitionImage reverted = controllerImage("held");
            assertThat(reverted.replicas()).containsExactly(1, 0);
            assertThat(reverted.reassigning()).isFalse();
            assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
            assertThatThrownBy(() -> admin.alterPartitionReassignments(Map.of(partition, Optional.empty())).all()
                    .get()).cause().isInstanceOf(NoReassignmentInProgressException.class);

            admin.alterPartitionReassignments(Map.of(partition,
                    Optional.of(new NewPartitionReassignment(List.of(1, 2))))).all().get();
        }
        cluster.stop(0);
        cluster.restart(0);
        await(() -> cluster.controller().membership().isLive(1), "node 1 to register with the new controller");
        try (Admin admin = admin()) {
            assertThat(admin.listPartitionReassignments().reassignments().get().get(partition).addingReplicas())
                    .as("saved with the controller's topics").containsExactly(2);
        }
        cluster.restart(2);
        await(() -> controllerImage("held").replicas().equals(List.of(1, 2)), "the move to complete");
        assertThat(controllerImage("held").leader()).as("node 1 stays leader: no new epoch needed").isEqualTo(1);
        produce("held", 20, 40);
        assertThat(ReadFromStart.values(cluster.bootstrapServers(), partition, 40, Duration.ofSeconds(30)))
                .isEqualTo(values(0, 40));
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    private PartitionImage controllerImage(String topic) {
        return cluster.controller().topicAssignments().image().topic(topic).orElseThrow().partitions().get(0);
    }

    private static List<Integer> replicasSeenByClients(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().get(0).replicas().stream().map(Node::id).toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    private void produce(String topic, int from, int to) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (String value : values(from, to)) {
                producer.send(new ProducerRecord<>(topic, 0, null, value)).get();
            }
        }
    }

    private static List<String> values(int from, int to) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add("v" + i);
        }
        return values;
    }
}
