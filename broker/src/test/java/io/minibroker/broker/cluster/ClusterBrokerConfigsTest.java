package io.minibroker.broker.cluster;

import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dynamic broker configs in a cluster of three, as Kafka's are ConfigRecords of resource type BROKER: the broker a
 * change reaches checks it (Kafka's ConfigAdminManager.preprocess) and forwards it to the controller, which keeps it;
 * every node then has the cluster default, and a topic without an override follows it on every node.
 */
@Timeout(180)
class ClusterBrokerConfigsTest {

    private static final int ALTERED_ON = 1;

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of());
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aClusterDefaultSetThroughOneBrokerReachesEveryNodeAndItsTopics() throws Exception {
        try (Admin admin = admin(ALTERED_ON)) {
            admin.createTopics(List.of(new NewTopic("plain", 1, (short) 3))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, ""), List.of(
                    new AlterConfigOp(new ConfigEntry("log.retention.ms", "5000"), AlterConfigOp.OpType.SET))))
                    .all().get();
        }
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> described(id, ConfigResources.BROKER, "", "log.retention.ms", "5000",
                    ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG), "node " + id + " to have the cluster default");
            await(() -> described(id, ConfigResources.BROKER, Integer.toString(id), "log.retention.ms", "5000",
                    ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG), "node " + id + " to use it");
            await(() -> described(id, ConfigResources.TOPIC, "plain", "retention.ms", "5000",
                    ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG), "node " + id + "'s topic to follow it");
        }
    }

    @Test
    void aPerBrokerConfigIsThatBrokersAloneAndAnotherBrokersIdIsRefusedWhereItArrives() throws Exception {
        try (Admin admin = admin(ALTERED_ON)) { // an AdminClient sends broker 2's resource to broker 2
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, "2"), List.of(
                    new AlterConfigOp(new ConfigEntry("log.cleaner.backoff.ms", "20000"), AlterConfigOp.OpType.SET))))
                    .all().get();
        }
        await(() -> described(2, ConfigResources.BROKER, "2", "log.cleaner.backoff.ms", "20000",
                ConfigResources.DYNAMIC_BROKER_CONFIG), "node 2 to have its own config");
        assertThat(described(0, ConfigResources.BROKER, "0", "log.cleaner.backoff.ms", "15000",
                ConfigResources.DEFAULT_CONFIG)).as("not node 0's").isTrue();

        Struct request = ApiKey.INCREMENTAL_ALTER_CONFIGS.request().newMessage().set("ValidateOnly", false);
        Struct resource = request.addElement("Resources").set("ResourceType", ConfigResources.BROKER)
                .set("ResourceName", "2");
        resource.addElement("Configs").set("Name", "log.cleaner.backoff.ms").set("ConfigOperation", (byte) 0)
                .set("Value", "1");
        resource = request.addElement("Resources").set("ResourceType", ConfigResources.TOPIC)
                .set("ResourceName", "missing");
        resource.addElement("Configs").set("Name", "retention.ms").set("ConfigOperation", (byte) 0).set("Value", "1");
        resource = request.addElement("Resources").set("ResourceType", ConfigResources.BROKER).set("ResourceName", "");
        resource.addElement("Configs").set("Name", "log.retention.ms").set("ConfigOperation", (byte) 0)
                .set("Value", null);
        List<Struct> answers = call(ALTERED_ON, ApiKey.INCREMENTAL_ALTER_CONFIGS, 1, request).getStructs("Responses");
        assertThat(answers).as("preprocessed here, and the controller's answer, in the request's order")
                .map(answer -> answer.getString("ResourceName") + ":" + answer.getInt16("ErrorCode")).containsExactly(
                        "2:" + Errors.INVALID_REQUEST.code(), "missing:" + Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                        ":" + Errors.INVALID_REQUEST.code());
        assertThat(answers.get(0).getString("ErrorMessage"))
                .isEqualTo("Unexpected broker id, expected 1, but received 2");
        assertThat(answers.get(2).getString("ErrorMessage")).isEqualTo("Null value not supported for : log.retention.ms");
    }

    @Test
    void theRequestsOwnChecksComeBeforeABrokerOrLoggerResourceIsPreprocessed() {
        // As Kafka's ConfigAdminManager.preprocess, and as on one node: another broker's resource named twice is
        // refused for being named twice, not for its id, and a logger change naming a key twice changes nothing.
        Struct request = ApiKey.INCREMENTAL_ALTER_CONFIGS.request().newMessage().set("ValidateOnly", false);
        for (int i = 0; i < 2; i++) {
            request.addElement("Resources").set("ResourceType", ConfigResources.BROKER).set("ResourceName", "2")
                    .addElement("Configs").set("Name", "log.cleaner.backoff.ms").set("ConfigOperation", (byte) 0)
                    .set("Value", "1");
        }
        Struct logger = request.addElement("Resources").set("ResourceType", ConfigResources.BROKER_LOGGER)
                .set("ResourceName", Integer.toString(ALTERED_ON));
        for (String level : List.of("DEBUG", "INFO")) {
            logger.addElement("Configs").set("Name", "root").set("ConfigOperation", (byte) 0).set("Value", level);
        }
        assertThat(call(ALTERED_ON, ApiKey.INCREMENTAL_ALTER_CONFIGS, 1, request).getStructs("Responses"))
                .map(answer -> answer.getString("ResourceName") + ":" + answer.getInt16("ErrorCode") + ":"
                        + answer.getString("ErrorMessage")).containsExactly(
                        "2:" + Errors.INVALID_REQUEST.code() + ":Each resource must appear at most once.",
                        "2:" + Errors.INVALID_REQUEST.code() + ":Each resource must appear at most once.",
                        ALTERED_ON + ":" + Errors.INVALID_REQUEST.code() + ":Error due to duplicate config keys");
    }

    @Test
    void theControllerKeepsOneClusterLevelMinInsyncReplicasWhileElrIsOnAndRefusesABrokersOwn() throws Exception {
        // Kafka 4.3.1's controller writes it at the cluster's bootstrap (ELR is finalized at 1 by default).
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> described(id, ConfigResources.BROKER, Integer.toString(id), "min.insync.replicas", "1",
                    ConfigResources.DYNAMIC_DEFAULT_BROKER_CONFIG), "node " + id + " to have the cluster's value");
        }
        try (Admin admin = admin(ALTERED_ON)) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(ALTERED_ON));
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(broker, List.of(new AlterConfigOp(
                    new ConfigEntry("min.insync.replicas", "2"), AlterConfigOp.OpType.SET)))).all().get())
                    .hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("Broker-level min.insync.replicas cannot be altered while ELR is enabled.");
        }
    }

    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }

    /** Whether this very node (an Admin would pick any) describes the resource's config so. */
    private boolean described(int node, byte type, String name, String config, String value, byte source) {
        Struct request = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
        request.addElement("Resources").set("ResourceType", type).set("ResourceName", name)
                .set("ConfigurationKeys", List.of(config));
        Struct result = call(node, ApiKey.DESCRIBE_CONFIGS, 4, request).getStructs("Results").get(0);
        if (result.getInt16("ErrorCode") != Errors.NONE.code() || result.getStructs("Configs").isEmpty()) {
            return false;
        }
        Struct entry = result.getStructs("Configs").get(0);
        return value.equals(entry.getString("Value")) && (Byte) entry.get("ConfigSource") == source;
    }

    private Struct call(int node, ApiKey api, int version, Struct request) {
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "broker-configs-test", 5_000)) {
            return channel.send(api, (short) version, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
