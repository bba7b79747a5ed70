package io.minibroker.broker.admin;

import io.minibroker.broker.config.Kafka431Definitions;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigType;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keys DescribeConfigs lists for a broker and for topics are Kafka 4.3.1's: for a broker, every key of Kafka's
 * KafkaConfig but the internal ones, then every other key set (as Kafka lists its config's originals); for a topic,
 * every one of LogConfig's. The expected sets are read from Kafka 4.3.1's ConfigDefs on the test classpath
 * ({@link Kafka431Definitions}); the entries checked one by one are as a 4.3.1 node answered them for the same settings
 * (docs/config-keys.md has the measurement and how to run it again).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DescribeConfigsKeySetTest {

    private static final DescribeConfigsOptions WITH_SYNONYMS = new DescribeConfigsOptions().includeSynonyms(true);

    @TempDir
    Path logDir;

    @Test
    void aBrokerListsKafkasKeysWhetherSetOrNot() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            Config config = describe(admin, new ConfigResource(ConfigResource.Type.BROKER, "1"));

            assertThat(names(config)).isEqualTo(Kafka431Definitions.listedBrokerKeys());
            // Keys users read back, as Kafka 4.3.1 answers them with nothing set.
            assertEntry(config.get("message.max.bytes"), "1048588", ConfigSource.DEFAULT_CONFIG, false, ConfigType.INT,
                    "DEFAULT_CONFIG:message.max.bytes=1048588");
            assertEntry(config.get("log.retention.hours"), "168", ConfigSource.DEFAULT_CONFIG, true, ConfigType.INT,
                    "DEFAULT_CONFIG:log.retention.hours=168");
            assertEntry(config.get("log.retention.ms"), null, ConfigSource.DEFAULT_CONFIG, false, ConfigType.LONG);
            // node.id's old name, at node.id's value, as Kafka puts it among its originals.
            assertEntry(config.get("broker.id"), "1", ConfigSource.STATIC_BROKER_CONFIG, true, ConfigType.INT,
                    "STATIC_BROKER_CONFIG:broker.id=1", "DEFAULT_CONFIG:broker.id=-1");
            // Keys of what this broker does not have, reported at Kafka's default (docs/configuration.md).
            assertEntry(config.get("num.io.threads"), "8", ConfigSource.DEFAULT_CONFIG, false, ConfigType.INT,
                    "DEFAULT_CONFIG:num.io.threads=8");
            assertEntry(config.get("remote.log.storage.system.enable"), "false", ConfigSource.DEFAULT_CONFIG, true,
                    ConfigType.BOOLEAN, "DEFAULT_CONFIG:remote.log.storage.system.enable=false");
            assertEntry(config.get("alter.config.policy.class.name"), null, ConfigSource.DEFAULT_CONFIG, true,
                    ConfigType.CLASS);
            assertThat(config.get("ssl.keystore.password").isSensitive()).isTrue();
        }
    }

    @Test
    void aBrokerListsEveryOtherKeySetAsKafkaListsItsOriginals() throws Exception {
        Map<String, String> set = Map.of("num.io.threads", "16", "super.users", "User:admin",
                "metrics.host", "127.0.0.1", "producer.id.expiration.check.interval.ms", "600000", "no.such.key", "x");
        try (Broker broker = TestBrokers.start(logDir, set); Admin admin = TestBrokers.admin(broker)) {
            Config config = describe(admin, new ConfigResource(ConfigResource.Type.BROKER, "1"));

            Set<String> expected = new TreeSet<>(Kafka431Definitions.listedBrokerKeys());
            expected.addAll(List.of("super.users", "metrics.host", "producer.id.expiration.check.interval.ms",
                    "no.such.key"));
            assertThat(names(config)).isEqualTo(expected);
            // Set in the file, without effect here: the file's value, as Kafka reports it.
            assertEntry(config.get("num.io.threads"), "16", ConfigSource.STATIC_BROKER_CONFIG, false, ConfigType.INT,
                    "STATIC_BROKER_CONFIG:num.io.threads=16", "DEFAULT_CONFIG:num.io.threads=8");
            // Kafka's internal key, which it lists only when set, with its default.
            assertEntry(config.get("producer.id.expiration.check.interval.ms"), "600000",
                    ConfigSource.STATIC_BROKER_CONFIG, true, ConfigType.INT,
                    "STATIC_BROKER_CONFIG:producer.id.expiration.check.interval.ms=600000",
                    "DEFAULT_CONFIG:producer.id.expiration.check.interval.ms=600000");
            // Keys KafkaConfig does not define (the authorizer's, this broker's own, any other): no type, so
            // sensitive, and no default.
            for (String name : List.of("super.users", "metrics.host", "no.such.key")) {
                assertEntry(config.get(name), null, ConfigSource.STATIC_BROKER_CONFIG, true, ConfigType.UNKNOWN,
                        "STATIC_BROKER_CONFIG:" + name + "=null");
                assertThat(config.get(name).isSensitive()).isTrue();
            }
        }
    }

    @Test
    void aTopicListsKafkasTopicKeysWithTheirBrokerSynonyms() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1), new NewTopic("tuned", 1, (short) 1)
                    .configs(Map.of("retention.ms", "3600000", "cleanup.policy", "compact",
                            "max.message.bytes", "2000000", "segment.bytes", "2097152")))).all().get();
            Config plain = describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "plain"));
            Config tuned = describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "tuned"));

            assertThat(names(plain)).isEqualTo(Kafka431Definitions.listedTopicKeys());
            assertThat(names(tuned)).isEqualTo(Kafka431Definitions.listedTopicKeys());
            assertEntry(plain.get("retention.ms"), "604800000", ConfigSource.DEFAULT_CONFIG, false, ConfigType.LONG);
            assertEntry(plain.get("max.message.bytes"), "1048588", ConfigSource.DEFAULT_CONFIG, false,
                    ConfigType.INT, "DEFAULT_CONFIG:message.max.bytes=1048588");
            assertEntry(tuned.get("retention.ms"), "3600000", ConfigSource.DYNAMIC_TOPIC_CONFIG, false,
                    ConfigType.LONG, "DYNAMIC_TOPIC_CONFIG:retention.ms=3600000");
            assertEntry(tuned.get("cleanup.policy"), "compact", ConfigSource.DYNAMIC_TOPIC_CONFIG, false,
                    ConfigType.LIST, "DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact",
                    "DEFAULT_CONFIG:log.cleanup.policy=delete");
            assertEntry(tuned.get("segment.bytes"), "2097152", ConfigSource.DYNAMIC_TOPIC_CONFIG, false,
                    ConfigType.INT, "DYNAMIC_TOPIC_CONFIG:segment.bytes=2097152",
                    "DEFAULT_CONFIG:log.segment.bytes=1073741824");
            assertEntry(tuned.get("preallocate"), "false", ConfigSource.DEFAULT_CONFIG, false, ConfigType.BOOLEAN,
                    "DEFAULT_CONFIG:log.preallocate=false");
        }
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), WITH_SYNONYMS).all().get().get(resource);
    }

    private static Set<String> names(Config config) {
        return config.entries().stream().map(ConfigEntry::name).collect(Collectors.toCollection(TreeSet::new));
    }

    private static void assertEntry(ConfigEntry entry, String value, ConfigSource source, boolean readOnly,
                                    ConfigType type, String... synonyms) {
        assertThat(entry.value()).as(entry.name()).isEqualTo(value);
        assertThat(entry.source()).as(entry.name()).isEqualTo(source);
        assertThat(entry.isReadOnly()).as(entry.name() + " read-only").isEqualTo(readOnly);
        assertThat(entry.type()).as(entry.name()).isEqualTo(type);
        assertThat(entry.synonyms()).as(entry.name())
                .map(s -> s.source() + ":" + s.name() + "=" + s.value()).containsExactly(synonyms);
    }
}
