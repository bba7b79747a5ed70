package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Topic admin in a cluster of three, each request sent to one node only: the controller makes the change and
 * every node applies it from the image. DeleteTopics removes the topic and its logs everywhere, answers the
 * produces and fetches parked on it, and the name can be created again; CreatePartitions adds replicated
 * partitions that take produce and consume.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat, so that no live node's session runs out on a loaded machine. The tests of a produce
 * or fetch parked on a topic that is deleted hold it still until the deletion has answered it: neither the killed
 * followers' sessions (the ISR would shrink and the produce be answered first) nor the fetch's wait can run out.
 */
class ClusterTopicAdminTest {

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 3_000, Map.of());
        cluster = running.cluster();
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void aTopicDeletedThroughOneNodeIsGoneFromEveryNodeAndCanBeCreatedAgain() throws Exception {
        Uuid firstId;
        try (Admin admin = admin(1)) {
            firstId = admin.createTopics(List.of(new NewTopic("doomed", 2, (short) 3))).topicId("doomed").get();
        }
        produceAndConsume("doomed", 2, "before");
        for (int node = 0; node < 3; node++) {
            assertThat(cluster.logDir(node).resolve("doomed-0")).isDirectory();
        }

        try (Admin admin = admin(0)) {
            admin.deleteTopics(List.of("doomed")).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> !listTopics(id).contains("doomed"), "node " + id + " to list no doomed");
            await(() -> !Files.exists(cluster.logDir(id).resolve("doomed-0"))
                    && !Files.exists(cluster.logDir(id).resolve("doomed-1")), "node " + id + " to delete the logs");
        }

        try (Admin admin = admin(2)) {
            Uuid secondId = admin.createTopics(List.of(new NewTopic("doomed", 2, (short) 3))).topicId("doomed").get();
            assertThat(secondId).isNotEqualTo(firstId);
        }
        assertThat(produceAndConsume("doomed", 2, "after")).containsOnly("after");
    }

    @Test
    void aProduceWaitingOnATopicThatIsDeletedIsAnsweredUnknownTopicOrPartition() throws Exception {
        try (Admin admin = admin(0)) {
            // The first topic's only partition is led by node 0, the controller's node, which the test keeps up.
            admin.createTopics(List.of(new NewTopic("parked", 1, (short) 3))).all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.node(0).boundPort("PLAINTEXT"),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.RETRIES_CONFIG, "0"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("parked", "k", "v")).get(); // connected, metadata known
            SessionClock.Held held = running.hold();
            try {
                cluster.kill(1);
                cluster.kill(2); // still in the ISR while the clock is held: the next acks=all produce waits
                Future<RecordMetadata> send = producer.send(new ProducerRecord<>("parked", "k", "v"));
                await(() -> parked(0, "Produce") == 1, "the produce to be parked on the leader");

                try (Admin admin = admin(0)) {
                    admin.deleteTopics(List.of("parked")).all().get();
                }
                assertThatThrownBy(send::get).hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
            } finally {
                held.close();
            }
        }
    }

    @Test
    void aConsumerFetchWaitingOnATopicThatIsDeletedIsAnsweredUnknownTopicOrPartition() throws Exception {
        Uuid id;
        try (Admin admin = admin(0)) {
            // The first topic's only partition is led by node 0, the controller's node, which the test keeps up.
            id = admin.createTopics(List.of(new NewTopic("watched", 1, (short) 3))).topicId("watched").get();
        }
        cluster.kill(1);
        cluster.kill(2); // their fetches would park in the same purgatory
        await(() -> parked(0, "Fetch") == 0, "the killed followers' last fetches to time out");
        Struct fetch = ApiKey.FETCH.request().newMessage().set("MaxWaitMs", 30_000).set("MinBytes", 1);
        fetch.addElement("Topics").set("TopicId", new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits()))
                .addElement("Partitions").set("Partition", 0).set("FetchOffset", 0L).set("PartitionMaxBytes", 1 << 20);
        SessionClock.Held held = running.hold(); // the fetch's MaxWaitMs cannot run out before the deletion
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(0).boundPort("PLAINTEXT"),
                "fetch-test", 60_000)) {
            CompletableFuture<Struct> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return channel.send(ApiKey.FETCH, fetch);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            await(() -> parked(0, "Fetch") == 1, "the fetch to be parked on the leader");
            try (Admin admin = admin(0)) {
                admin.deleteTopics(List.of("watched")).all().get();
            }
            Struct partition = answer.get().getStructs("Responses").get(0).getStructs("Partitions").get(0);
            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        } finally {
            held.close();
        }
    }

    @Test
    void deletingAnUnknownTopicIsUnknownTopicOrPartitionAndAnUnknownIdUnknownTopicId() throws Exception {
        try (Admin admin = admin(1)) {
            assertThatThrownBy(() -> admin.deleteTopics(List.of("never-was")).all().get())
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
            assertThatThrownBy(() -> admin.deleteTopics(TopicCollection.ofTopicIds(List.of(Uuid.randomUuid())))
                    .all().get()).hasCauseInstanceOf(UnknownTopicIdException.class);
        }
    }

    @Test
    void aTopicNamedTwiceOrByBothNameAndIdIsInvalidRequestAndStays() throws Exception {
        Uuid id;
        try (Admin admin = admin(0)) {
            id = admin.createTopics(List.of(new NewTopic("twice", 1, (short) 3))).topicId("twice").get();
        }
        Struct request = ApiKey.DELETE_TOPICS.request().newMessage().set("TimeoutMs", 30_000);
        request.addElement("Topics").set("Name", "twice");
        request.addElement("Topics").set("Name", "twice");
        request.addElement("Topics").set("Name", "twice").set("TopicId", new UUID(id.getMostSignificantBits(),
                id.getLeastSignificantBits()));
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(1).boundPort("PLAINTEXT"),
                "delete-topics-test", 5_000)) {
            List<Struct> results = channel.send(ApiKey.DELETE_TOPICS, request).getStructs("Responses");
            assertThat(results).hasSize(2).allSatisfy(result ->
                    assertThat(result.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code()));
        }
        assertThat(listTopics(1)).contains("twice");
    }

    @Test
    void aTopicDeletedByIdIsGone() throws Exception {
        try (Admin admin = admin(2)) {
            Uuid id = admin.createTopics(List.of(new NewTopic("by-id", 1, (short) 3))).topicId("by-id").get();
            admin.deleteTopics(TopicCollection.ofTopicIds(List.of(id))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> !listTopics(id).contains("by-id"), "node " + id + " to list no by-id");
        }
    }

    @Test
    void aNodeThatWasDownWhenItsTopicWasDeletedDeletesItWhenItIsBack() throws Exception {
        try (Admin admin = admin(0)) {
            admin.createTopics(List.of(new NewTopic("missed", 1, (short) 3))).all().get();
        }
        await(() -> Files.isDirectory(cluster.logDir(2).resolve("missed-0")), "node 2 to host missed-0");
        cluster.stop(2);
        try (Admin admin = admin(0)) {
            admin.deleteTopics(List.of("missed")).all().get();
        }
        assertThat(cluster.logDir(2).resolve("missed-0")).isDirectory();

        cluster.restart(2);
        await(() -> !Files.exists(cluster.logDir(2).resolve("missed-0")), "node 2 to delete missed-0");
        assertThat(listTopics(2)).doesNotContain("missed");
    }

    @Test
    void partitionsAddedThroughOneNodeAreReplicatedAndTakeProduceAndConsume() throws Exception {
        try (Admin admin = admin(0)) {
            admin.createTopics(List.of(new NewTopic("growing", 1, (short) 3))).all().get();
        }
        try (Admin admin = admin(1)) {
            admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(3))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> partitions(id, "growing").size() == 3, "node " + id + " to see three partitions");
            for (List<Integer> replicas : partitions(id, "growing")) {
                assertThat(replicas).hasSize(3);
            }
        }
        assertThat(produceAndConsume("growing", 3, "spread")).hasSize(3).containsOnly("spread");
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> Files.isDirectory(cluster.logDir(id).resolve("growing-2")), "node " + id + " to host growing-2");
        }
    }

    @Test
    void partitionsThatAreNoIncreaseAreInvalidPartitions() throws Exception {
        try (Admin admin = admin(2)) {
            admin.createTopics(List.of(new NewTopic("steady", 2, (short) 3))).all().get();
            assertThatThrownBy(() -> admin.createPartitions(Map.of("steady", NewPartitions.increaseTo(1))).all().get())
                    .hasCauseInstanceOf(InvalidPartitionsException.class);
            assertThatThrownBy(() -> admin.createPartitions(Map.of("steady", NewPartitions.increaseTo(2))).all().get())
                    .hasCauseInstanceOf(InvalidPartitionsException.class);
        }
        await(() -> partitions(2, "steady").size() == 2, "node 2 to see the two partitions");
    }

    @Test
    void theControllerRefusesMoreThanTenThousandPartitionsInOneRequest() throws Exception {
        try (Admin admin = admin(1)) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("vast", 10_001, (short) 1))).all().get())
                    .hasCauseInstanceOf(PolicyViolationException.class)
                    .hasMessageContaining("Excessively large number of partitions per request.");
            admin.createTopics(List.of(new NewTopic("modest", 1, (short) 1))).all().get();
            assertThatThrownBy(() -> admin.createPartitions(Map.of("modest", NewPartitions.increaseTo(10_002)))
                    .all().get())
                    .hasCauseInstanceOf(PolicyViolationException.class)
                    .hasMessageContaining("Unable to perform excessively large batch operation.");
            assertThat(admin.describeTopics(List.of("modest")).allTopicNames().get().get("modest").partitions())
                    .hasSize(1);
            assertThat(admin.listTopics().names().get()).doesNotContain("vast");
        }
    }

    @Test
    void manualAssignmentsAreCheckedAndValidateOnlyChangesNothing() throws Exception {
        try (Admin admin = admin(1)) {
            admin.createTopics(List.of(new NewTopic("assigned", 1, (short) 2))).all().get();
            assertThatThrownBy(() -> admin.createPartitions(Map.of("assigned",
                    NewPartitions.increaseTo(2, List.of(List.of(0))))).all().get())
                    .as("one replica where the topic has two").hasCauseInstanceOf(InvalidReplicaAssignmentException.class);
            assertThatThrownBy(() -> admin.createPartitions(Map.of("assigned",
                    NewPartitions.increaseTo(2, List.of(List.of(0, 7))))).all().get())
                    .as("a broker that does not exist").hasCauseInstanceOf(InvalidReplicaAssignmentException.class);

            await(() -> partitions(1, "assigned").size() == 1, "node 1 to see the topic");
            admin.createPartitions(Map.of("assigned", NewPartitions.increaseTo(3)),
                    new CreatePartitionsOptions().validateOnly(true)).all().get();
            assertThat(partitions(1, "assigned")).hasSize(1);

            admin.createPartitions(Map.of("assigned",
                    NewPartitions.increaseTo(2, List.of(List.of(2, 1))))).all().get();
        }
        await(() -> partitions(0, "assigned").size() == 2, "node 0 to see the new partition");
        assertThat(partitions(0, "assigned").get(1)).containsExactly(2, 1);
        assertThat(produceAndConsume("assigned", 2, "placed")).containsOnly("placed");
    }

    /** Sends one record to each partition (acks=all) and reads the topic back from the start. */
    private List<String> produceAndConsume(String topic, int partitions, String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            for (int partition = 0; partition < partitions; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, "k", value)).get();
            }
        }
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> assigned = new ArrayList<>();
            for (int partition = 0; partition < partitions; partition++) {
                assigned.add(new TopicPartition(topic, partition));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            await(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    values.add(record.value());
                }
                return values.size() >= partitions;
            }, "a record from each partition of " + topic);
        }
        return values;
    }

    private double parked(int node, String purgatory) {
        var gauge = cluster.node(node).meterRegistry().find("purgatory.delayed.operations")
                .tag("delayedOperation", purgatory).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    /** The topics this very node lists (an Admin client would ask any node it knows). */
    private Set<String> listTopics(int node) {
        return metadataOf(node).topics().stream().map(MetadataResponseView.MetadataResponseTopic::name)
                .collect(Collectors.toSet());
    }

    /** Each partition's replicas, as this very node describes the topic; empty while it does not know it. */
    private List<List<Integer>> partitions(int node, String topic) {
        return metadataOf(node).topics().stream().filter(t -> t.name().equals(topic)).findFirst()
                .map(t -> t.partitions().stream().map(p -> List.copyOf(p.replicaNodes())).toList())
                .orElse(List.of());
    }

    private MetadataResponseView metadataOf(int node) {
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "metadata-test", 5_000)) {
            return new MetadataResponseView(channel.send(ApiKey.METADATA,
                    ApiKey.METADATA.request().newMessage().set("Topics", null)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An admin client that talks to this node only. */
    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
