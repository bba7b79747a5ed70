package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Auto-creation in a cluster of three: a producer's Metadata request for an unknown topic has the controller create
 * it with num.partitions and default.replication.factor, placed over the registered brokers, a fenced one too (out
 * of the ISR), as with Kafka; with fewer registered brokers than that factor it is not created, and the producer,
 * told UNKNOWN_TOPIC_OR_PARTITION, gives up at its max.block.ms.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: no live node's session runs out on a loaded machine, leaving too few brokers for a topic.
 */
class ClusterTopicAutoCreationTest {

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 3_000, Map.of("num.partitions", "2", "default.replication.factor", "3",
                "offsets.topic.num.partitions", "4", "offsets.topic.replication.factor", "2"));
        cluster = running.cluster();
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void aProducerToAnUnknownTopicCreatesItWithTheDefaultReplicationFactor() throws Exception {
        produce(1, "auto", 30_000);
        TopicDescription topic = awaitDescription("auto");
        assertThat(topic.partitions()).hasSize(2);
        for (TopicPartitionInfo partition : topic.partitions()) {
            assertThat(partition.replicas()).hasSize(3);
        }
    }

    @Test
    void aMetadataRequestNamingTheOffsetsTopicCreatesItWithTheOffsetsTopicSettings() throws Exception {
        Struct request = ApiKey.METADATA.request().newMessage().set("AllowAutoTopicCreation", true);
        request.addElement("Topics").set("Name", InternalTopics.CONSUMER_OFFSETS);
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(1).boundPort("PLAINTEXT"),
                "metadata-test", 5_000)) {
            channel.send(ApiKey.METADATA, request);
        }
        TopicDescription topic = awaitDescription(InternalTopics.CONSUMER_OFFSETS);
        assertThat(topic.partitions()).as("offsets.topic.num.partitions, not num.partitions").hasSize(4);
        assertThat(topic.partitions()).as("offsets.topic.replication.factor, not default.replication.factor")
                .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(2));
        // Each describe may reach another node, one whose image may not have the topic yet: wait until both
        // configs are there in one node's answer, then check them.
        String[] configs = new String[2];
        await(() -> {
            configs[0] = topicConfig(InternalTopics.CONSUMER_OFFSETS, "cleanup.policy");
            configs[1] = topicConfig(InternalTopics.CONSUMER_OFFSETS, "segment.bytes");
            return configs[0] != null && configs[1] != null;
        }, "the offsets topic's configs");
        assertThat(configs[0]).isEqualTo("compact");
        assertThat(configs[1]).as("offsets.topic.segment.bytes' default, not log.segment.bytes'")
                .isEqualTo("104857600");
    }

    /** One of the topic's configs as a node describes it, or null while that one lags. */
    private String topicConfig(String name, String key) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
        try (Admin admin = admin(0)) {
            return admin.describeConfigs(List.of(resource)).all().get().get(resource).get(key).value();
        } catch (Exception e) {
            return null;
        }
    }

    /** The topic as the first node that knows it describes it. */
    private TopicDescription awaitDescription(String name) {
        AtomicReference<TopicDescription> described = new AtomicReference<>();
        await(() -> {
            described.set(describe(name));
            return described.get() != null;
        }, "a node to know " + name);
        return described.get();
    }

    /** The topic as a node describes it (any node: an Admin client picks one), or null while that one lags. */
    private TopicDescription describe(String name) {
        try (Admin admin = admin(2)) {
            return admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
        } catch (Exception e) {
            return null;
        }
    }

    @Test
    void aFencedBrokerIsGivenReplicasOutOfTheIsr() throws Exception {
        cluster.stop(2);
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");

        produce(1, "placed", 30_000);
        try (Admin admin = admin(0)) {
            for (TopicPartitionInfo partition : admin.describeTopics(List.of("placed")).allTopicNames().get()
                    .get("placed").partitions()) {
                assertThat(partition.replicas()).hasSize(3);
                assertThat(partition.isr().stream().map(Node::id).toList()).containsExactlyInAnyOrder(0, 1);
            }
        }
    }

    private void produce(int node, String topic, int maxBlockMs) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.node(node).boundPort("PLAINTEXT"),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(maxBlockMs)),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", "v")).get();
        }
    }

    /** An admin client that talks to this node only. */
    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
