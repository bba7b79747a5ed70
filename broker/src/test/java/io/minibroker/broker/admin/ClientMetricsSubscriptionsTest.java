package io.minibroker.broker.admin;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KIP-714 subscriptions (CLIENT_METRICS config resources) on a single node through kafka-clients' Admin: Kafka
 * 4.3.1's ClientMetricsConfigs checks with its error codes and messages, validateOnly, DescribeConfigs' defaults and
 * sources, ListConfigResources, deleting every config removing the subscription, a restart keeping them, and list
 * values as Kafka's ConfigDef parses them (an empty item refused, a duplicate taken).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientMetricsSubscriptionsTest {

    private static final ConfigResource SUBSCRIPTION = new ConfigResource(ConfigResource.Type.CLIENT_METRICS, "cpu");

    @TempDir
    Path logDir;

    @Test
    void refusesWhatKafkaRefusesWithItsCodesAndMessages() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertRefused(admin, SUBSCRIPTION, "interval.ms", "50", InvalidRequestException.class,
                    "Invalid value 50 for interval.ms, interval must be between 100 and 3600000 (1 hour)");
            assertRefused(admin, SUBSCRIPTION, "interval.ms", "soon", InvalidConfigurationException.class,
                    "Invalid value soon for configuration interval.ms: Not a number of type INT");
            assertRefused(admin, SUBSCRIPTION, "colour", "blue", InvalidRequestException.class,
                    "Unknown client metrics configuration: colour");
            assertRefused(admin, SUBSCRIPTION, "match", "client_colour=blue", InvalidConfigurationException.class,
                    "Illegal client matching pattern: client_colour=blue");
            assertRefused(admin, SUBSCRIPTION, "match", "client_id", InvalidConfigurationException.class,
                    "Illegal client matching pattern: client_id");
            assertRefused(admin, SUBSCRIPTION, "match", "client_id=[", InvalidConfigurationException.class,
                    "Illegal client matching pattern: client_id=[");
            assertRefused(admin, SUBSCRIPTION, "metrics", "org.apache.kafka.producer.,,org.apache.kafka.consumer.",
                    InvalidConfigurationException.class, "Configuration 'metrics' values must not be empty.");
            assertRefused(admin, SUBSCRIPTION, "match", "client_id=app.*, ", InvalidConfigurationException.class,
                    "Configuration 'match' values must not be empty.");
            assertRefused(admin, new ConfigResource(ConfigResource.Type.CLIENT_METRICS, ""), "interval.ms", "1000",
                    InvalidRequestException.class, "Subscription name can't be empty");

            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set("interval.ms", "1000"))),
                    new AlterConfigsOptions().validateOnly(true)).all().get();
            assertThat(listed(admin)).as("validateOnly keeps nothing").isEmpty();
        }
    }

    @Test
    void keepsDescribesListsAndDeletesSubscriptionsAcrossARestart() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(described(admin)).as("a name never set: the defaults")
                    .isEqualTo(Map.of("interval.ms", "300000 DEFAULT_CONFIG INT",
                            "match", " DEFAULT_CONFIG LIST", "metrics", " DEFAULT_CONFIG LIST"));
            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set("interval.ms", "1000"),
                    set("metrics", "org.apache.kafka.producer."), set("match", "client_id=app.*")))).all().get();
            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(new AlterConfigOp(
                    new ConfigEntry("metrics", "org.apache.kafka.consumer."), AlterConfigOp.OpType.APPEND))))
                    .all().get();
        }
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            assertThat(listed(admin)).containsExactly("cpu");
            assertThat(described(admin)).isEqualTo(Map.of("interval.ms", "1000 DYNAMIC_CLIENT_METRICS_CONFIG INT",
                    "match", "client_id=app.* DYNAMIC_CLIENT_METRICS_CONFIG LIST",
                    "metrics", "org.apache.kafka.producer.,org.apache.kafka.consumer. DYNAMIC_CLIENT_METRICS_CONFIG LIST"));

            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(delete("interval.ms"), delete("match"))))
                    .all().get();
            assertThat(listed(admin)).as("one config left").containsExactly("cpu");
            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(delete("metrics")))).all().get();
            assertThat(listed(admin)).as("no config left").isEmpty();
        }
    }

    /** Kafka 4.3.1's ConfigDef drops a duplicate before its ValidList checks: taken, kept as given. */
    @Test
    void takesDuplicateListValuesAsKafkaDoes() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set("metrics", "a.,b.,a."),
                    set("match", "client_id=x, client_id=x")))).all().get();
            assertThat(described(admin)).isEqualTo(Map.of("interval.ms", "300000 DEFAULT_CONFIG INT",
                    "match", "client_id=x, client_id=x DYNAMIC_CLIENT_METRICS_CONFIG LIST",
                    "metrics", "a.,b.,a. DYNAMIC_CLIENT_METRICS_CONFIG LIST"));
        }
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String name) {
        return new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE);
    }

    private static void assertRefused(Admin admin, ConfigResource resource, String name, String value,
                                      Class<? extends Exception> error, String message) {
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(resource, List.of(set(name, value))))
                .all().get()).as(name + "=" + value).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(error).cause().hasMessage(message);
    }

    private static List<String> listed(Admin admin) throws Exception {
        return admin.listConfigResources(Set.of(ConfigResource.Type.CLIENT_METRICS), new ListConfigResourcesOptions())
                .all().get().stream().map(resource -> resource.name()).toList();
    }

    /** Each config as "value source type". */
    private static Map<String, String> described(Admin admin) throws Exception {
        Config config = admin.describeConfigs(List.of(SUBSCRIPTION)).all().get().get(SUBSCRIPTION);
        Map<String, String> entries = new TreeMap<>();
        config.entries().forEach(entry -> entries.put(entry.name(),
                entry.value() + " " + entry.source() + " " + entry.type()));
        return entries;
    }
}
