package io.minibroker.broker.admin;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dynamic broker configs on a single node (AlterConfigs and IncrementalAlterConfigs of a BROKER resource,
 * {@code kafka-configs --entity-type brokers}), with Kafka 4.3.1's answers: the checks of its ConfigAdminManager and
 * DynamicBrokerConfig, the sources DescribeConfigs names, and topics without an override following a new default.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DynamicBrokerConfigsTest {

    private static final ConfigResource THIS_BROKER = new ConfigResource(ConfigResource.Type.BROKER, "1");
    private static final ConfigResource CLUSTER_DEFAULT = new ConfigResource(ConfigResource.Type.BROKER, "");

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("log.retention.hours", "100"));
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void aDynamicConfigOfThisBrokerIsDescribedAsDynamicAndOnlyKafkasDynamicConfigsAreWritable() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "log.cleaner.backoff.ms", "20000");

            Config config = describe(admin, THIS_BROKER);
            assertEntry(config.get("log.cleaner.backoff.ms"), ConfigSource.DYNAMIC_BROKER_CONFIG,
                    "DYNAMIC_BROKER_CONFIG:log.cleaner.backoff.ms=20000", "DEFAULT_CONFIG:log.cleaner.backoff.ms=15000");
            assertThat(config.get("log.cleaner.backoff.ms").isReadOnly()).isFalse();
            assertThat(config.get("log.retention.ms").isReadOnly()).isFalse();
            assertThat(config.get("node.id").isReadOnly()).as("not one of Kafka's dynamic configs").isTrue();
            assertThat(config.get("log.retention.hours").isReadOnly()).isTrue();

            // Kafka rebinds its listeners; this broker reads them at its start only: kept and described, not advertised.
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "listeners", "PLAINTEXT://localhost:1");
            assertThat(describe(admin, THIS_BROKER).get("listeners").value()).isEqualTo("PLAINTEXT://localhost:1");
            assertThat(broker.advertisedListeners()).singleElement()
                    .satisfies(endpoint -> assertThat(endpoint.port()).isEqualTo(broker.boundPort("PLAINTEXT")));

            set(admin, THIS_BROKER, AlterConfigOp.OpType.DELETE, "log.cleaner.backoff.ms", null);
            assertEntry(describe(admin, THIS_BROKER).get("log.cleaner.backoff.ms"), ConfigSource.DEFAULT_CONFIG,
                    "DEFAULT_CONFIG:log.cleaner.backoff.ms=15000");
        }
    }

    /**
     * The replication throttled rates, which Kafka's KafkaConfig does not define (its DynamicConfig.Broker does), as a
     * Kafka 4.3.1 node describes them ({@code kafka-configs --describe --all}): not listed while unset, then LONG,
     * not sensitive, with the dynamic values alone as synonyms.
     */
    @Test
    void theReplicationThrottledRatesAreListedOnlyWhereSetWithTheirValues() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            assertThat(describe(admin, THIS_BROKER).entries()).extracting(ConfigEntry::name)
                    .doesNotContain("leader.replication.throttled.rate", "follower.replication.throttled.rate");

            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "leader.replication.throttled.rate", "1000");
            set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "leader.replication.throttled.rate", "3000");
            set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "follower.replication.throttled.rate", "4000");

            Config config = describe(admin, THIS_BROKER);
            ConfigEntry leader = config.get("leader.replication.throttled.rate");
            assertThat(leader.value()).isEqualTo("1000");
            assertThat(leader.isSensitive()).isFalse();
            assertThat(leader.type()).isEqualTo(ConfigEntry.ConfigType.LONG);
            assertEntry(leader, ConfigSource.DYNAMIC_BROKER_CONFIG,
                    "DYNAMIC_BROKER_CONFIG:leader.replication.throttled.rate=1000",
                    "DYNAMIC_DEFAULT_BROKER_CONFIG:leader.replication.throttled.rate=3000");
            ConfigEntry follower = config.get("follower.replication.throttled.rate");
            assertThat(follower.value()).isEqualTo("4000");
            assertThat(follower.isSensitive()).isFalse();
            assertEntry(follower, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                    "DYNAMIC_DEFAULT_BROKER_CONFIG:follower.replication.throttled.rate=4000");
        }
    }

    @Test
    void aThrottledRateSetInTheFileIsListedAsStatic() throws Exception {
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("follower.replication.throttled.rate", "5000"));
        try (Admin admin = TestBrokers.admin(broker)) {
            ConfigEntry follower = describe(admin, THIS_BROKER).get("follower.replication.throttled.rate");
            assertThat(follower.value()).isEqualTo("5000");
            assertEntry(follower, ConfigSource.STATIC_BROKER_CONFIG,
                    "STATIC_BROKER_CONFIG:follower.replication.throttled.rate=5000");
        }
    }

    @Test
    void kafkasChecksRefuseAStaticConfigAnotherBrokerAndAPerBrokerConfigAtTheClusterDefault() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "node.id", "5"),
                    InvalidRequestException.class, "Cannot update these configs dynamically: [node.id]");
            // Sent here whatever the name (an AdminClient sends a broker's resource to that broker).
            assertThat(alter(ApiKey.INCREMENTAL_ALTER_CONFIGS, ConfigResources.BROKER, "7", "log.cleaner.backoff.ms",
                    "1")).isEqualTo(Errors.INVALID_REQUEST.code() + ":Unexpected broker id, expected 1, but received 7");
            assertThat(alter(ApiKey.INCREMENTAL_ALTER_CONFIGS, ConfigResources.BROKER, "x", "log.cleaner.backoff.ms",
                    "1")).isEqualTo(Errors.INVALID_REQUEST.code() + ":Node id must be an integer, but it is: x");
            assertRefused(() -> set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET,
                    "sasl.kerberos.min.time.before.relogin", "58000"), InvalidRequestException.class,
                    "Cannot update these configs at default cluster level, broker id must be specified: "
                            + "[sasl.kerberos.min.time.before.relogin]");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "ssl.keystore.location", "/k"),
                    InvalidRequestException.class, "These security configs can be dynamically updated only "
                            + "per-listener using the listener prefix: [ssl.keystore.location]");
            assertRefused(() -> set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "message.max.bytes", "-1"),
                    InvalidRequestException.class,
                    "Invalid value -1 for configuration message.max.bytes: Value must be at least 0");
            // Kafka's ConfigDef words, as a Kafka 4.3.1 node answered the same alterations (session 26)
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "message.max.bytes", "abc"),
                    InvalidRequestException.class,
                    "Invalid value abc for configuration message.max.bytes: Not a number of type INT");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "compression.type", "abc"),
                    InvalidRequestException.class, "Invalid value abc for configuration compression.type: String"
                            + " must be one of: uncompressed, zstd, lz4, snappy, gzip, producer");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "log.retention.ms", "0"),
                    InvalidRequestException.class,
                    "requirement failed: log.retention.ms must be unlimited (-1) or, greater than or equal to 1");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "broker.id", "1"),
                    InvalidRequestException.class, "Cannot update these configs dynamically: [broker.id]");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "max.connections", "0"),
                    InvalidRequestException.class, "Invalid value org.apache.kafka.common.config.ConfigException:"
                            + " Invalid max.connections 0 for configuration Invalid dynamic configuration");
            assertRefused(() -> set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "listeners", "abc"),
                    InvalidRequestException.class, "Cannot update these configs at default cluster level, broker id"
                            + " must be specified: [listeners]");
            assertRefused(() -> set(admin, THIS_BROKER, AlterConfigOp.OpType.APPEND, "log.retention.ms", "1"),
                    InvalidConfigurationException.class,
                    "Config value append is not allowed for config key: log.retention.ms");

            // A per-broker config Kafka keeps (librdkafka's 0081_admin sets this one): taken for this broker.
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "sasl.kerberos.min.time.before.relogin", "58000");
            ConfigEntry kept = describe(admin, THIS_BROKER).get("sasl.kerberos.min.time.before.relogin");
            assertThat(kept.source()).isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
            assertOnlyElrMinInsyncReplicas(describe(admin, CLUSTER_DEFAULT));
        }
    }

    @Test
    void validateOnlyChangesNothingAndAppendAndSubtractWorkOnTheCleanupPolicyList() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.incrementalAlterConfigs(Map.of(CLUSTER_DEFAULT, List.of(new AlterConfigOp(
                    new ConfigEntry("log.retention.ms", "1000"), AlterConfigOp.OpType.SET))),
                    new AlterConfigsOptions().validateOnly(true)).all().get();
            assertOnlyElrMinInsyncReplicas(describe(admin, CLUSTER_DEFAULT));

            set(admin, THIS_BROKER, AlterConfigOp.OpType.APPEND, "log.cleanup.policy", "compact");
            assertThat(describe(admin, THIS_BROKER).get("log.cleanup.policy").value()).isEqualTo("delete,compact");
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SUBTRACT, "log.cleanup.policy", "delete");
            assertThat(describe(admin, THIS_BROKER).get("log.cleanup.policy").value()).isEqualTo("compact");
        }
    }

    @Test
    void theFilesValueStaysTheStaticSynonymWhileADynamicValueIsInForce() throws Exception {
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("message.max.bytes", "300000"));
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1))).all().get();
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "message.max.bytes", "1000");

            assertEntry(describe(admin, THIS_BROKER).get("message.max.bytes"), ConfigSource.DYNAMIC_BROKER_CONFIG,
                    "DYNAMIC_BROKER_CONFIG:message.max.bytes=1000", "STATIC_BROKER_CONFIG:message.max.bytes=300000",
                    "DEFAULT_CONFIG:message.max.bytes=1048588");
            assertEntry(describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "plain")).get("max.message.bytes"),
                    ConfigSource.DYNAMIC_BROKER_CONFIG, "DYNAMIC_BROKER_CONFIG:message.max.bytes=1000",
                    "STATIC_BROKER_CONFIG:message.max.bytes=300000", "DEFAULT_CONFIG:message.max.bytes=1048588");
        }
    }

    @Test
    void aTopicWithoutAnOverrideFollowsANewClusterDefaultAndTheDefaultOutlivesARestart() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1),
                    new NewTopic("own", 1, (short) 1).configs(Map.of("max.message.bytes", "100000")))).all().get();
            set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "message.max.bytes", "1000");
            set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, "log.retention.ms", "5000");

            ConfigResource plain = new ConfigResource(ConfigResource.Type.TOPIC, "plain");
            Config topic = describe(admin, plain);
            assertEntry(topic.get("retention.ms"), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                    "DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=5000",
                    "STATIC_BROKER_CONFIG:log.retention.hours=100", "DEFAULT_CONFIG:log.retention.hours=168");
            assertThat(topic.get("retention.ms").value()).isEqualTo("5000");
            assertEntry(describe(admin, CLUSTER_DEFAULT).get("message.max.bytes"),
                    ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, "DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=1000");
        }
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            byte[] value = new byte[2000];
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("plain", value)).get())
                    .hasCauseInstanceOf(RecordTooLargeException.class);
            producer.send(new ProducerRecord<>("own", value)).get(); // its own override is unchanged
        }

        broker.close();
        broker = TestBrokers.start(logDir, Map.of("log.retention.hours", "100"));
        try (Admin admin = TestBrokers.admin(broker)) {
            assertThat(describe(admin, CLUSTER_DEFAULT).get("log.retention.ms").value()).isEqualTo("5000");
            assertThat(describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "plain"))
                    .get("retention.ms").value()).isEqualTo("5000");
        }
    }

    @Test
    void aStoredDefaultThisBrokerDoesNotActOnIsNotATopicsValueNorItsSource() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            Config topic = newTopicAfterClusterDefault(admin, "log.preallocate", "true");
            assertThat(topic.get("preallocate").value()).isEqualTo("false");
            assertEntry(topic.get("preallocate"), ConfigSource.DEFAULT_CONFIG, "DEFAULT_CONFIG:log.preallocate=false");
            // The broker's own description keeps them, as stored.
            assertThat(describe(admin, CLUSTER_DEFAULT).get("log.preallocate").source())
                    .isEqualTo(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        }
    }

    /** As a Kafka 4.3.1 node answered the same change (docs/config-keys.md). */
    @Test
    void aNewClusterDefaultLogRollJitterIsEveryTopicsSegmentJitter() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            Config topic = newTopicAfterClusterDefault(admin, "log.roll.jitter.ms", "5000");
            assertThat(topic.get("segment.jitter.ms").value()).isEqualTo("5000");
            assertEntry(topic.get("segment.jitter.ms"), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                    "DYNAMIC_DEFAULT_BROKER_CONFIG:log.roll.jitter.ms=5000", "DEFAULT_CONFIG:log.roll.jitter.hours=0");
            Config config = describe(admin, THIS_BROKER);
            assertThat(config.get("log.roll.jitter.ms").value()).isEqualTo("5000");
            assertEntry(config.get("log.roll.jitter.ms"), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                    "DYNAMIC_DEFAULT_BROKER_CONFIG:log.roll.jitter.ms=5000", "DEFAULT_CONFIG:log.roll.jitter.hours=0");
            assertThat(config.get("log.roll.jitter.hours").isReadOnly()).isTrue();
        }
    }

    @Test
    void theLegacyAlterConfigsReplacesTheResourcesDynamicConfigs() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            set(admin, THIS_BROKER, AlterConfigOp.OpType.SET, "log.cleaner.backoff.ms", "20000");
            assertThat(alter(ApiKey.ALTER_CONFIGS, ConfigResources.BROKER, "1", "log.retention.bytes", "1000000"))
                    .isEqualTo(Errors.NONE.code() + ":null");

            Config config = describe(admin, THIS_BROKER);
            assertThat(config.get("log.cleaner.backoff.ms").source()).isEqualTo(ConfigSource.DEFAULT_CONFIG);
            assertThat(config.get("log.retention.bytes").source()).isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
            assertThat(alter(ApiKey.ALTER_CONFIGS, ConfigResources.BROKER_LOGGER, "1", "root", "DEBUG"))
                    .isEqualTo(Errors.INVALID_REQUEST.code() + ":Unknown resource type 8");
        }
    }

    /**
     * AlterConfigs v2 (kafka-clients 4 no longer sends it) or IncrementalAlterConfigs v1 SET of one config, sent to
     * this broker: the error code and message.
     */
    private String alter(ApiKey api, byte type, String name, String config, String value) throws Exception {
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            Struct request = api.request().newMessage();
            request.set("ValidateOnly", false);
            Struct resource = request.addElement("Resources").set("ResourceType", type).set("ResourceName", name);
            Struct entry = resource.addElement("Configs").set("Name", config).set("Value", value);
            short version = 2;
            if (api == ApiKey.INCREMENTAL_ALTER_CONFIGS) {
                entry.set("ConfigOperation", (byte) 0);
                version = 1;
            }
            client.send(RawClient.request(api, version, 1, request));
            Struct answer = client.receive(api, version).body().getStructs("Responses").get(0);
            return answer.getInt16("ErrorCode") + ":" + answer.getString("ErrorMessage");
        }
    }

    private static void set(Admin admin, ConfigResource resource, AlterConfigOp.OpType op, String name, String value)
            throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(name, value), op))))
                .all().get();
    }

    /** The cluster default holds only what Kafka writes there when ELR is on: {@code min.insync.replicas}. */
    private static void assertOnlyElrMinInsyncReplicas(Config clusterDefault) {
        assertThat(clusterDefault.entries()).extracting(ConfigEntry::name, ConfigEntry::value)
                .containsExactly(tuple("min.insync.replicas", "1"));
    }

    /** A new topic "plain" without overrides, described once {@code name} is set for the cluster. */
    private static Config newTopicAfterClusterDefault(Admin admin, String name, String value) throws Exception {
        admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1))).all().get();
        set(admin, CLUSTER_DEFAULT, AlterConfigOp.OpType.SET, name, value);
        return describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "plain"));
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)).all()
                .get().get(resource);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT"), ProducerConfig.RETRIES_CONFIG, 0),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void assertRefused(Call call, Class<? extends Exception> error, String message) {
        assertThatThrownBy(call::run).isInstanceOf(ExecutionException.class).cause().isInstanceOf(error)
                .hasMessage(message);
    }

    private static void assertEntry(ConfigEntry entry, ConfigSource source, String... synonyms) {
        assertThat(entry.source()).as(entry.name()).isEqualTo(source);
        Collection<String> listed = entry.synonyms().stream()
                .map(s -> s.source() + ":" + s.name() + "=" + s.value()).toList();
        assertThat(listed).as(entry.name()).containsExactly(synonyms);
    }
}
