package io.minibroker.broker.admin;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * DescribeConfigs' sources and synonyms, as Apache Kafka 4.3.1 answers them for the same settings (its
 * {@code kafka-configs --describe --all} output, taken from a real broker with log.retention.hours and
 * log.segment.bytes in its file and a topic with a retention.ms override, is what these cases check).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DescribeConfigsSynonymsTest {

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("log.retention.hours", "168", "log.segment.bytes", "1073741824",
                "log.roll.ms", "3600000"));
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void aTopicsConfigsNameTheirOverrideThenTheBrokerConfigsTheyFallBackTo() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("t", 1, (short) 1).configs(Map.of("retention.ms", "100000"))))
                    .all().get();
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "t");
            Config config = admin.describeConfigs(List.of(topic), new DescribeConfigsOptions().includeSynonyms(true))
                    .all().get().get(topic);

            assertEntry(config.get("retention.ms"), ConfigSource.DYNAMIC_TOPIC_CONFIG,
                    "DYNAMIC_TOPIC_CONFIG:retention.ms=100000");
            assertEntry(config.get("segment.bytes"), ConfigSource.STATIC_BROKER_CONFIG,
                    "STATIC_BROKER_CONFIG:log.segment.bytes=1073741824", "DEFAULT_CONFIG:log.segment.bytes=1073741824");
            assertEntry(config.get("max.message.bytes"), ConfigSource.DEFAULT_CONFIG,
                    "DEFAULT_CONFIG:message.max.bytes=1048588");
            assertEntry(config.get("cleanup.policy"), ConfigSource.DEFAULT_CONFIG,
                    "DEFAULT_CONFIG:log.cleanup.policy=delete");
            assertEntry(config.get("segment.ms"), ConfigSource.STATIC_BROKER_CONFIG,
                    "STATIC_BROKER_CONFIG:log.roll.ms=3600000", "DEFAULT_CONFIG:log.roll.hours=168");
            // log.flush.interval.ms has no default and is not set: Kafka lists none, though its sibling has one.
            assertEntry(config.get("flush.ms"), ConfigSource.DEFAULT_CONFIG);
            assertEntry(config.get("remote.storage.enable"), ConfigSource.DEFAULT_CONFIG);

            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config brokerConfig = admin.describeConfigs(List.of(node), new DescribeConfigsOptions()
                    .includeSynonyms(true)).all().get().get(node);
            assertEntry(brokerConfig.get("log.retention.hours"), ConfigSource.STATIC_BROKER_CONFIG,
                    "STATIC_BROKER_CONFIG:log.retention.hours=168", "DEFAULT_CONFIG:log.retention.hours=168");
            assertEntry(brokerConfig.get("log.retention.ms"), ConfigSource.DEFAULT_CONFIG);
            assertEntry(brokerConfig.get("log.roll.ms"), ConfigSource.STATIC_BROKER_CONFIG,
                    "STATIC_BROKER_CONFIG:log.roll.ms=3600000", "DEFAULT_CONFIG:log.roll.hours=168");
            assertEntry(brokerConfig.get("log.roll.hours"), ConfigSource.DEFAULT_CONFIG,
                    "DEFAULT_CONFIG:log.roll.hours=168");

            Config withoutSynonyms = admin.describeConfigs(List.of(topic)).all().get().get(topic);
            assertThat(withoutSynonyms.get("segment.bytes").synonyms()).as("only when asked").isEmpty();
            assertThat(withoutSynonyms.get("segment.bytes").source()).isEqualTo(ConfigSource.STATIC_BROKER_CONFIG);
        }
    }

    @Test
    void theEmptyBrokerNameIsTheClustersDynamicDefaultsAndAnotherNodeIdIsRefused() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            ConfigResource clusterDefaults = new ConfigResource(ConfigResource.Type.BROKER, "");
            assertThat(admin.describeConfigs(List.of(clusterDefaults)).all().get().get(clusterDefaults).entries())
                    .as("only the cluster-level min.insync.replicas that Kafka 4.3.1 writes with ELR on"
                            + " (kafka-configs --entity-default)")
                    .extracting(ConfigEntry::name, ConfigEntry::value, ConfigEntry::source)
                    .containsExactly(tuple("min.insync.replicas", "1", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
        }
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            Struct request = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
            request.addElement("Resources").set("ResourceType", ConfigResources.BROKER).set("ResourceName", "7")
                    .set("ConfigurationKeys", null);
            client.send(RawClient.request(ApiKey.DESCRIBE_CONFIGS, (short) 4, 1, request));
            Struct result = client.receive(ApiKey.DESCRIBE_CONFIGS, (short) 4).body().getStructs("Results").get(0);
            assertThat(result.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(result.getString("ErrorMessage"))
                    .isEqualTo("Unexpected broker id, expected 1 or empty string, but received 7");

            Struct named = ApiKey.DESCRIBE_CONFIGS.request().newMessage();
            named.addElement("Resources").set("ResourceType", ConfigResources.BROKER).set("ResourceName", "one")
                    .set("ConfigurationKeys", null);
            client.send(RawClient.request(ApiKey.DESCRIBE_CONFIGS, (short) 4, 2, named));
            Struct notANumber = client.receive(ApiKey.DESCRIBE_CONFIGS, (short) 4).body().getStructs("Results").get(0);
            assertThat(notANumber.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(notANumber.getString("ErrorMessage")).isEqualTo("Broker id must be an integer, but it is: one");
        }
    }

    private static void assertEntry(ConfigEntry entry, ConfigSource source, String... synonyms) {
        assertThat(entry.source()).as(entry.name()).isEqualTo(source);
        assertThat(entry.synonyms()).as(entry.name())
                .map(s -> s.source() + ":" + s.name() + "=" + s.value()).containsExactly(synonyms);
    }
}
