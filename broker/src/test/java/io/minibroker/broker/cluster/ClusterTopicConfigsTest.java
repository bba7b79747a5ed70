package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Topic configs in a cluster of three: given at creation or changed through one node, they are the controller's,
 * every node describes them, and the partitions' leader enforces them (min.insync.replicas, max.message.bytes).
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: no live node's session runs out on a loaded machine, shrinking an ISR the test counts.
 */
class ClusterTopicConfigsTest {

    private static final String TOPIC = "configured";

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 3_000, Map.of("replica.lag.time.max.ms", "2000"));
        cluster = running.cluster();
        try (Admin admin = admin(0)) {
            // The first topic's only partition is led by node 0, the controller's node, which the tests keep up.
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void aConfigAlteredThroughOneNodeIsDescribedByEveryNodeAndEnforcedByTheLeader() throws Exception {
        try (Admin admin = admin(2)) {
            alter(admin, AlterConfigOp.OpType.SET, "min.insync.replicas", "2");
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> describedAs(id, "min.insync.replicas", "2", ConfigResources.DYNAMIC_TOPIC_CONFIG),
                    "node " + id + " to describe it");
        }
        await(() -> isr().size() == 3, "the ISR to be every replica");
        produce("fits"); // two of three in sync: enough

        cluster.stop(1);
        cluster.stop(2);
        await(() -> isr().equals(List.of(0)), "the ISR to shrink to the leader, have " + isr());
        assertThatThrownBy(() -> produce("alone")).hasCauseInstanceOf(NotEnoughReplicasException.class);
    }

    @Test
    void aConfigDeletedAgainFallsBackToTheDefaultEverywhere() throws Exception {
        try (Admin admin = admin(1)) {
            alter(admin, AlterConfigOp.OpType.SET, "max.message.bytes", "100");
        }
        await(() -> describedAs(0, "max.message.bytes", "100", ConfigResources.DYNAMIC_TOPIC_CONFIG),
                "the leader to describe it");
        assertThatThrownBy(() -> produce("x".repeat(200))).hasCauseInstanceOf(RecordTooLargeException.class);

        try (Admin admin = admin(2)) {
            alter(admin, AlterConfigOp.OpType.DELETE, "max.message.bytes", null);
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> describedAs(id, "max.message.bytes", "1048588", ConfigResources.DEFAULT_CONFIG),
                    "node " + id + " to describe the default");
        }
        produce("x".repeat(200));
    }

    @Test
    void configsGivenAtCreationAreAnsweredAndDescribedByEveryNode() throws Exception {
        try (Admin admin = admin(1)) {
            CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("born-configured", 1, (short) 3)
                    .configs(Map.of("retention.ms", "3600000"))));
            assertThat(created.config("born-configured").get().get("retention.ms").value()).isEqualTo("3600000");
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> describedAs(id, "born-configured", "retention.ms", "3600000",
                    ConfigResources.DYNAMIC_TOPIC_CONFIG), "node " + id + " to describe it");
        }
    }

    @Test
    void alterConfigsThroughOneNodeReplacesTheOverridesOnEveryNode() throws Exception {
        try (Admin admin = admin(0)) {
            alter(admin, AlterConfigOp.OpType.SET, "max.message.bytes", "5000");
        }
        // AlterConfigs (which kafka-clients 4 no longer sends) replaces every override with the ones it names.
        Struct request = ApiKey.ALTER_CONFIGS.request().newMessage().set("ValidateOnly", false);
        request.addElement("Resources").set("ResourceType", ConfigResources.TOPIC).set("ResourceName", TOPIC)
                .addElement("Configs").set("Name", "retention.ms").set("Value", "7200000");
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(1).boundPort("PLAINTEXT"),
                "alter-configs-test", 5_000)) {
            Struct result = channel.send(ApiKey.ALTER_CONFIGS, request).getStructs("Responses").get(0);
            assertThat(result.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> describedAs(id, "retention.ms", "7200000", ConfigResources.DYNAMIC_TOPIC_CONFIG)
                    && describedAs(id, "max.message.bytes", "1048588", ConfigResources.DEFAULT_CONFIG),
                    "node " + id + " to describe the replaced overrides");
        }
    }

    private static void alter(Admin admin, AlterConfigOp.OpType operation, String key, String value)
            throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> change = Map.of(new ConfigResource(ConfigResource.Type.TOPIC,
                TOPIC), List.of(new AlterConfigOp(new ConfigEntry(key, value), operation)));
        admin.incrementalAlterConfigs(change).all().get();
    }

    private boolean describedAs(int node, String key, String value, byte source) {
        return describedAs(node, TOPIC, key, value, source);
    }

    private boolean describedAs(int node, String topic, String key, String value, byte source) {
        DescribedConfig described = describe(node, topic, key);
        return described != null && described.is(value, source);
    }

    /**
     * The config as this very node describes it (an Admin client would send the request to any node it knows),
     * or null while the node does not know the topic.
     */
    private DescribedConfig describe(int node, String topic, String key) {
        Struct request = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
        request.addElement("Resources").set("ResourceType", ConfigResources.TOPIC).set("ResourceName", topic)
                .set("ConfigurationKeys", List.of(key));
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "describe-configs-test", 5_000)) {
            Struct result = channel.send(ApiKey.DESCRIBE_CONFIGS, request).getStructs("Results").get(0);
            if (result.getInt16("ErrorCode") != Errors.NONE.code()) {
                return null;
            }
            Struct config = result.getStructs("Configs").get(0);
            return new DescribedConfig(config.getString("Value"), (Byte) config.get("ConfigSource"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record DescribedConfig(String value, byte source) {

        boolean is(String expected, byte expectedSource) {
            return value.equals(expected) && source == expectedSource;
        }
    }

    /** acks=all without retries, so the first error is the one the test sees. */
    private void produce(String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.controller().boundPort("PLAINTEXT"),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.RETRIES_CONFIG, "0"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, "k", value)).get();
        }
    }

    /**
     * The ISR as a node describes it, and not the controller's (see FirstPartition) on purpose: once nodes 1 and 2
     * are stopped only node 0, the leader, answers, and the leader refuses a produce by its own ISR, which takes a
     * shrink after the controller has it (from its image, or the answer to its AlterPartition). Before the stop, any
     * node answers: the ISR is whole from the topic's creation, so no image can show it whole too early.
     */
    private List<Integer> isr() {
        try (Admin admin = admin(0)) {
            return admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).partitions().get(0).isr()
                    .stream().map(Node::id).sorted().toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    /** An admin client that talks to this node only. */
    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
