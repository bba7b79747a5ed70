package io.minibroker.broker.admin;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * KIP-966's hold on {@code min.insync.replicas} on a single node, as Kafka 4.3.1's controller keeps it
 * (ConfigurationControlManager): with {@code eligible.leader.replicas.version} at 1, the default, a new node stores
 * the cluster-level value from its own file, so topics describe it as the cluster's dynamic default (the entries
 * confluent-kafka-python's test_incremental_alter_configs expects of a 4.1+ broker); a broker's own value may not
 * be set and the cluster's not removed. Checked against a real Kafka 4.3.1 node: {@code kafka-configs --describe
 * --entity-type brokers --entity-default} lists {@code min.insync.replicas=1} on a fresh node.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EligibleLeaderReplicasConfigsTest {

    private static final ConfigResource THIS_BROKER = new ConfigResource(ConfigResource.Type.BROKER, "1");
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final String ELR = "eligible.leader.replicas.version";
    private static final String MIN_ISR = "min.insync.replicas";

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aNewNodeStoresItsFilesValueAsTheClustersAndTopicsDescribeItAsTheClusterDefault() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(MIN_ISR, "2"));
        try (Admin admin = TestBrokers.admin(broker)) {
            assertThat(describe(admin, CLUSTER_DEFAULT).entries()).extracting(ConfigEntry::name, ConfigEntry::value)
                    .containsExactly(tuple(MIN_ISR, "2"));
            assertThat(describe(admin, THIS_BROKER).get(MIN_ISR).synonyms())
                    .extracting(synonym -> synonym.source() + ":" + synonym.value())
                    .containsExactly("DYNAMIC_DEFAULT_BROKER_CONFIG:2", "STATIC_BROKER_CONFIG:2", "DEFAULT_CONFIG:1");
            admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1))).all().get();
            ConfigEntry topic = describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "plain")).get(MIN_ISR);
            assertThat(topic.source()).isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
            assertThat(topic.value()).isEqualTo("2");
        }
    }

    @Test
    void whileElrIsOnABrokersOwnValueAndRemovingTheClustersAreRefusedAndChangingTheClustersIsKept()
            throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            assertRefused(() -> incremental(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "2", false),
                    "Broker-level min.insync.replicas cannot be altered while ELR is enabled.");
            assertRefused(() -> incremental(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.DELETE, null, true),
                    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.");
            assertRefused(() -> admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, List.of(new AlterConfigOp(
                            new ConfigEntry(MIN_ISR, null), AlterConfigOp.OpType.DELETE)))).all().get(),
                    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.");
            // A DELETE of a broker's value it does not have changes nothing, so Kafka writes nothing to refuse.
            incremental(admin, THIS_BROKER, AlterConfigOp.OpType.DELETE, null, false);

            incremental(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "3", false);
        }
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            assertThat(describe(admin, CLUSTER_DEFAULT).get(MIN_ISR).value())
                    .as("a stored value is kept at the next start").isEqualTo("3");
        }
    }

    @Test
    void withElrOffBothAreAllowedAndEnablingItAgainStoresTheClustersAndDropsTheBrokers() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.updateFeatures(Map.of(ELR, new FeatureUpdate((short) 0, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    new UpdateFeaturesOptions()).all().get();
            incremental(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.DELETE, null, false);
            incremental(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "2", false);
            assertThat(describe(admin, CLUSTER_DEFAULT).entries()).isEmpty();
            assertThat(describe(admin, THIS_BROKER).get(MIN_ISR).source())
                    .isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);

            admin.updateFeatures(Map.of(ELR, new FeatureUpdate((short) 1, FeatureUpdate.UpgradeType.UPGRADE)),
                    new UpdateFeaturesOptions()).all().get();
            assertThat(describe(admin, CLUSTER_DEFAULT).entries()).extracting(ConfigEntry::name, ConfigEntry::value)
                    .containsExactly(tuple(MIN_ISR, "1"));
            ConfigEntry own = describe(admin, THIS_BROKER).get(MIN_ISR);
            assertThat(own.source()).as("the broker's own value is gone").isEqualTo(
                    ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        }
    }

    private static void incremental(Admin admin, ConfigResource resource, AlterConfigOp.OpType op, String value,
                                    boolean validateOnly) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(MIN_ISR, value), op))),
                new AlterConfigsOptions().validateOnly(validateOnly)).all().get();
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)).all()
                .get().get(resource);
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    private static void assertRefused(Call call, String message) {
        assertThatThrownBy(call::run).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InvalidConfigurationException.class).cause().hasMessage(message);
    }
}
