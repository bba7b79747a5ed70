package io.minibroker.broker.replica;

import io.micrometer.core.instrument.Meter;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
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
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
        start(Map.of());
    }

    private void start(Map<String, String> overrides) throws Exception {
        Map<String, String> config = new HashMap<>(Map.of("broker.heartbeat.interval.ms", "100",
                "replica.lag.time.max.ms", "3000", "replica.fetch.wait.max.ms", "100"));
        config.putAll(overrides);
        cluster = MiniCluster.start(3, config);
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
    void aFetchParkedOnAReplicaMovedAwayIsAnsweredNotLeaderOrFollowerNamingTheNewLeader() throws Exception {
        start();
        UUID topicId;
        try (Admin admin = admin()) {
            Uuid id = admin.createTopics(List.of(new NewTopic("parked", Map.of(0, List.of(0), 1, List.of(0)))))
                    .topicId("parked").get();
            topicId = new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
        }
        // Partition 0 moves while node 0 keeps partition 1; then partition 1 moves, and the topic leaves node 0.
        assertMovingAwayAnswersAParkedFetch(topicId, 0);
        assertMovingAwayAnswersAParkedFetch(topicId, 1);
    }

    /**
     * Parks a consumer's Fetch v16 at the (empty) log end of a partition node 0 leads, moves the partition to nodes 1
     * and 2, and checks the fetch is answered NOT_LEADER_OR_FOLLOWER naming node 1, as Kafka answers it.
     */
    private void assertMovingAwayAnswersAParkedFetch(UUID topicId, int index) throws Exception {
        try (NodeChannel leader = new NodeChannel("localhost", cluster.node(0).boundPort("PLAINTEXT"),
                "parked-fetch", 90_000)) {
            await(() -> parkedFetches(0) == 0, "node 0's purgatory to be empty");
            CompletableFuture<Struct> parked = CompletableFuture.supplyAsync(() -> {
                try {
                    return leader.send(ApiKey.FETCH, (short) 16, consumerFetch(topicId, index));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            await(() -> parkedFetches(0) > 0 || parked.isDone(), "the fetch to park at node 0");
            assertThat(parked).isNotDone();

            try (Admin admin = admin()) {
                admin.alterPartitionReassignments(Map.of(new TopicPartition("parked", index),
                        Optional.of(new NewPartitionReassignment(List.of(1, 2))))).all().get();
            }

            Struct answered = parked.get(60, TimeUnit.SECONDS);
            Struct answer = answered.getStructs("Responses").get(0).getStructs("Partitions").get(0);
            assertThat(Errors.forCode(answer.getInt16("ErrorCode"))).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(answer.getStruct("CurrentLeader").getInt32("LeaderId")).isEqualTo(1);
            assertThat(controllerImage("parked", index).replicas()).containsExactly(1, 2);
        }
    }

    /** A consumer's Fetch v16 of a partition at offset 0, waiting up to 60 s for a byte. */
    private static Struct consumerFetch(UUID topicId, int index) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("MaxWaitMs", 60_000).set("MinBytes", 1)
                .set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("TopicId", topicId).addElement("Partitions").set("Partition", index)
                .set("CurrentLeaderEpoch", -1).set("FetchOffset", 0L).set("PartitionMaxBytes", 1024);
        return fetch;
    }

    /** How many fetches wait in a node's Fetch purgatory. */
    private double parkedFetches(int node) {
        return parked(node, "Fetch");
    }

    /** How many operations wait in a node's purgatory of that name ("Fetch", "Produce"). */
    private double parked(int node, String purgatory) {
        Meter found = cluster.node(node).meterRegistry().find("purgatory.size").tag("delayedOperation", purgatory)
                .meter();
        return found == null ? -1 : found.measure().iterator().next().getValue();
    }

    /**
     * An acks=all Produce v10 parked at the leader (node 0) for a follower that was killed and so stays in the ISR
     * (its broker session and the leader's lag time both outlast the test) is answered NOT_LEADER_OR_FOLLOWER naming
     * the new leader, node 2, and its endpoint, when a reassignment moves the partition to node 2: partition 0 while
     * node 0 keeps partition 1, then partition 1, and the topic leaves node 0. Answered while node 0 still has the
     * log, as Kafka answers it.
     */
    @Test
    void anAcksAllProduceParkedOnAReplicaMovedAwayIsAnsweredNotLeaderOrFollowerNamingTheNewLeader()
            throws Exception {
        start(Map.of("broker.session.timeout.ms", "120000", "replica.lag.time.max.ms", "120000"));
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("acked", Map.of(0, List.of(0, 1), 1, List.of(0, 1)))))
                    .all().get();
        }
        await(() -> controllerImage("acked", 0).isr().size() == 2 && controllerImage("acked", 1).isr().size() == 2,
                "nodes 0 and 1 in both partitions' ISR");
        cluster.kill(1);
        assertMovingAwayAnswersAParkedProduce(0);
        assertMovingAwayAnswersAParkedProduce(1);
    }

    private void assertMovingAwayAnswersAParkedProduce(int index) throws Exception {
        try (NodeChannel leader = new NodeChannel("localhost", cluster.node(0).boundPort("PLAINTEXT"),
                "parked-produce", 90_000)) {
            await(() -> parked(0, "Produce") == 0, "node 0's Produce purgatory to be empty");
            CompletableFuture<Struct> parked = CompletableFuture.supplyAsync(() -> {
                try {
                    return leader.send(ApiKey.PRODUCE, (short) 10, acksAllProduce("acked", index));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            await(() -> parked(0, "Produce") > 0 || parked.isDone(), "the produce to park at node 0");
            assertThat(parked).as("node 1, killed, is still in the ISR").isNotDone();

            try (Admin admin = admin()) {
                admin.alterPartitionReassignments(Map.of(new TopicPartition("acked", index),
                        Optional.of(new NewPartitionReassignment(List.of(2))))).all().get();
            }

            Struct answered = parked.get(60, TimeUnit.SECONDS);
            Struct answer = answered.getStructs("Responses").get(0).getStructs("PartitionResponses").get(0);
            assertThat(Errors.forCode(answer.getInt16("ErrorCode"))).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(answer.getStruct("CurrentLeader").getInt32("LeaderId")).isEqualTo(2);
            assertThat(answered.getStructs("NodeEndpoints")).singleElement().satisfies(node -> {
                assertThat(node.getInt32("NodeId")).isEqualTo(2);
                assertThat(node.getInt32("Port")).isEqualTo(cluster.node(2).boundPort("PLAINTEXT"));
            });
            assertThat(controllerImage("acked", index).replicas()).containsExactly(2);
        }
    }

    /** A Produce (v10: topics by name) of one record to a partition, acks=all, waiting up to 60 s. */
    private static Struct acksAllProduce(String topic, int index) {
        ByteBuf built = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1L)
                .append(1L, null, "v".getBytes(StandardCharsets.UTF_8), List.of()).build();
        ByteBuf batch = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(built));
        built.release();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) -1).set("TimeoutMs", 60_000);
        body.addElement("TopicData").set("Name", topic).addElement("PartitionData").set("Index", index)
                .set("Records", batch);
        return body;
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
        return controllerImage(topic, 0);
    }

    private PartitionImage controllerImage(String topic, int index) {
        return cluster.controller().topicAssignments().image().topic(topic).orElseThrow().partitions().get(index);
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
