package io.minibroker.broker.config;

import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.replica.FetcherSettings;
import io.minibroker.broker.topic.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BrokerConfigTest {

    @Test
    void emptyConfigGivesKafkasDefaults() {
        BrokerConfig config = BrokerConfig.of(Map.of());

        assertThat(config.get(BrokerConfig.LISTENERS)).containsExactly(new Endpoint("PLAINTEXT", "", 9092));
        assertThat(config.advertisedListeners()).isEqualTo(config.get(BrokerConfig.LISTENERS));
        assertThat(config.get(BrokerConfig.SOCKET_REQUEST_MAX_BYTES)).isEqualTo(104_857_600);
        assertThat(config.get(BrokerConfig.NUM_PARTITIONS)).isEqualTo(1);
        assertThat(config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE)).isTrue();
        assertThat(config.get(BrokerConfig.MESSAGE_MAX_BYTES)).isEqualTo(1_048_588);
        assertThat(config.get(BrokerConfig.LOG_FLUSH_INTERVAL_MESSAGES)).isEqualTo(Long.MAX_VALUE);
        assertThat(config.logDirs()).containsExactly(Path.of("/tmp/kafka-logs"));
        assertThat(config.logRetentionMs()).isEqualTo(168 * 3_600_000L);
        assertThat(config.logRollMs()).isEqualTo(168 * 3_600_000L);
        assertThat(config.get(BrokerConfig.FETCH_PURGATORY_PURGE_INTERVAL_REQUESTS)).isEqualTo(1000);
        assertThat(config.get(BrokerConfig.PRODUCER_PURGATORY_PURGE_INTERVAL_REQUESTS)).isEqualTo(1000);
        assertThat(config.get(BrokerConfig.DELETE_RECORDS_PURGATORY_PURGE_INTERVAL_REQUESTS)).isEqualTo(1);
    }

    /**
     * As Kafka 4.3.1's KafkaConfig (compared on a node, session 26): any negative retention means forever, however
     * given, and a retention of zero is refused in its words.
     */
    @Test
    void retentionTakesAnyNegativeAsForeverAndRefusesZero() {
        assertThat(BrokerConfig.of(Map.of("log.retention.ms", "-5")).logRetentionMs()).isEqualTo(-1);
        assertThat(BrokerConfig.of(Map.of("log.retention.hours", "-3")).logRetentionMs()).isEqualTo(-1);
        assertThat(BrokerConfig.of(Map.of("log.retention.minutes", "2")).logRetentionMs()).isEqualTo(120_000);
        for (String key : List.of("log.retention.ms", "log.retention.minutes", "log.retention.hours")) {
            assertThatThrownBy(() -> BrokerConfig.of(Map.of(key, "0"))).as(key).isInstanceOf(ConfigException.class)
                    .hasMessage("requirement failed: log.retention.ms must be unlimited (-1) or, greater than or"
                            + " equal to 1");
        }
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("log.retention.ms", "abc")))
                .hasMessage("Invalid value abc for configuration log.retention.ms: Not a number of type LONG");
    }

    @Test
    void theRebalanceProtocolsTakeShareAsKafka43DoesAndStillRequireClassic() {
        BrokerConfig withShare = BrokerConfig.of(Map.of("group.coordinator.rebalance.protocols", "classic,consumer,share"));

        assertThat(withShare.get(BrokerConfig.GROUP_COORDINATOR_REBALANCE_PROTOCOLS))
                .containsExactly("classic", "consumer", "share");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("group.coordinator.rebalance.protocols", "consumer,share")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("classic");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("group.coordinator.rebalance.protocols", "classic,unknown")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("group.coordinator.rebalance.protocols");
    }

    @Test
    void brokerIdAloneNamesTheNodeAsKafkasSynonym() {
        BrokerConfig config = BrokerConfig.of(Map.of("broker.id", "5"));

        assertThat(config.get(BrokerConfig.NODE_ID)).isEqualTo(5);
        assertThat(config.unknownKeys()).doesNotContain("broker.id");
        assertThat(BrokerConfig.of(Map.of("broker.id", "5", "node.id", "5")).get(BrokerConfig.NODE_ID)).isEqualTo(5);
    }

    @Test
    void brokerIdBesideADifferentNodeIdIsRefusedWithKafkasMessage() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("broker.id", "5", "node.id", "1")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("You must set `node.id` to the same value as `broker.id`.");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("broker.id", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("node.id");
    }

    @Test
    void applyingDynamicConfigsSaysWhetherAValueInForceChanged() {
        BrokerConfig config = BrokerConfig.of(Map.of());

        assertThat(config.applyDynamic(Map.of("log.retention.ms", "5000"), Map.of())).isTrue();
        assertThat(config.logRetentionMs()).isEqualTo(5000L);
        assertThat(config.applyDynamic(Map.of(), Map.of("log.retention.ms", "5000")))
                .as("the same value, now this broker's own").isFalse();
        assertThat(config.applyDynamic(Map.of("log.cleaner.backoff.ms", "1"), Map.of("log.retention.ms", "5000")))
                .as("a key kept but not in force").isFalse();
        assertThat(config.applyDynamic(Map.of(), Map.of())).isTrue();
        assertThat(config.logRetentionMs()).isEqualTo(168 * 3_600_000L);
    }

    @Test
    void anEmptyLogCleanupPolicyIsTakenAsKafkasInfiniteRetentionAndADuplicateCountsOnce() {
        BrokerConfig empty = BrokerConfig.of(Map.of("log.cleanup.policy", ""));
        assertThat(empty.get(BrokerConfig.LOG_CLEANUP_POLICY)).isEmpty();
        assertThat(TopicConfig.effective(empty, Map.of())).containsEntry("cleanup.policy", "");
        LogConfig log = TopicConfig.logConfig(empty, Map.of());
        assertThat(log.retentionMs()).isEqualTo(-1);
        assertThat(log.retentionBytes()).isEqualTo(-1);
        assertThat(log.compacted()).isFalse();

        BrokerConfig twice = BrokerConfig.of(Map.of("log.cleanup.policy", "delete, delete"));
        assertThat(twice.get(BrokerConfig.LOG_CLEANUP_POLICY)).containsExactly("delete");
        assertThat(TopicConfig.effective(twice, Map.of())).containsEntry("cleanup.policy", "delete");
    }

    @Test
    void moreSpecificKeysWinAsInKafka() {
        BrokerConfig config = BrokerConfig.of(Map.of(
                "log.dir", "/a", "log.dirs", "/b, /c",
                "log.retention.hours", "1", "log.retention.minutes", "5",
                "log.roll.hours", "2", "log.roll.ms", "1234"));

        assertThat(config.logDirs()).containsExactly(Path.of("/b"), Path.of("/c"));
        assertThat(config.logRetentionMs()).isEqualTo(5 * 60_000L);
        assertThat(config.logRollMs()).isEqualTo(1234L);
        assertThat(BrokerConfig.of(Map.of("log.retention.ms", "-1", "log.retention.minutes", "5")).logRetentionMs())
                .isEqualTo(-1);
    }

    /** A class name the broker has no assignor for stops the start, naming the key, rather than failing later. */
    @Test
    void onlyTheBuiltInConsumerGroupAssignorsAreTaken() {
        assertThat(BrokerConfig.of(Map.of("group.consumer.assignors",
                "range,org.apache.kafka.coordinator.group.assignor.UniformAssignor"))
                .get(BrokerConfig.GROUP_CONSUMER_ASSIGNORS))
                .containsExactly("range", "org.apache.kafka.coordinator.group.assignor.UniformAssignor");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("group.consumer.assignors",
                "org.apache.kafka.clients.consumer.RangeAssignor")))
                .hasMessageContaining("group.consumer.assignors");
    }

    @Test
    void anInvalidValueStopsTheBrokerNamingTheKey() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.partitions", "zero")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("num.partitions");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.partitions", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("num.partitions");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("auto.create.topics.enable", "yes")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("auto.create.topics.enable");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "localhost:9092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listeners");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("log.message.timestamp.type", "WallClock")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("log.message.timestamp.type");
    }

    @Test
    void aLeadersAddPartitionsRetriesHaveKafkasKeysDefaultsAndBounds() {
        BrokerConfig defaults = BrokerConfig.of(Map.of());
        assertThat(defaults.get(BrokerConfig.ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MS)).isEqualTo(20);
        assertThat(defaults.get(BrokerConfig.ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS)).isEqualTo(100);
        BrokerConfig noRetry = BrokerConfig.of(Map.of("add.partitions.to.txn.retry.backoff.max.ms", "0"));
        assertThat(noRetry.get(BrokerConfig.ADD_PARTITIONS_TO_TXN_RETRY_BACKOFF_MAX_MS)).isZero();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("add.partitions.to.txn.retry.backoff.ms", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("add.partitions.to.txn.retry.backoff.ms");
    }

    @Test
    void aFollowersFetchKeysHaveKafkasNamesDefaultsAndBounds() {
        BrokerConfig set = BrokerConfig.of(Map.of("replica.fetch.max.bytes", "4096",
                "replica.fetch.response.max.bytes", "8192", "replica.fetch.backoff.ms", "0"));
        assertThat(set.unknownKeys()).as("Kafka's keys, known").isEmpty();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("replica.fetch.max.bytes", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("replica.fetch.max.bytes");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("replica.fetch.backoff.ms", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("replica.fetch.backoff.ms");

        assertThat(FetcherSettings.of(set)).isEqualTo(new FetcherSettings(500, 1, 4096, 8192, 0));
        assertThat(FetcherSettings.of(BrokerConfig.of(Map.of())))
                .isEqualTo(new FetcherSettings(500, 1, 1_048_576, 10_485_760, 1_000));
    }

    @Test
    void advertisedListenersMustNameConfiguredListeners() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of(
                "listeners", "PLAINTEXT://:9092", "advertised.listeners", "EXTERNAL://example.com:19092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("advertised.listeners");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:9092,PLAINTEXT://:9093")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listeners");
    }

    @Test
    void theMetaAddressMayBeBoundButNotAdvertisedAsInKafka() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://0.0.0.0:9092")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("advertised.listeners")
                .hasMessageContaining("cannot use the nonroutable meta-address 0.0.0.0");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:9092",
                "advertised.listeners", "PLAINTEXT://0.0.0.0:9092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("0.0.0.0");
        assertThat(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://0.0.0.0:9092",
                "advertised.listeners", "PLAINTEXT://localhost:9092")).advertisedListeners())
                .containsExactly(new Endpoint("PLAINTEXT", "localhost", 9092));
    }

    @Test
    void perIpLimitsAreCheckedAsKafkaChecksThem() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("max.connections.per.ip", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("max.connections.per.ip.overrides");
        assertThat(BrokerConfig.of(Map.of("max.connections.per.ip", "0",
                "max.connections.per.ip.overrides", "10.0.0.1:5, ::1:2")).get(BrokerConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES))
                .containsExactlyInAnyOrderEntriesOf(Map.of("10.0.0.1", 5, "::1", 2));
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("max.connections.per.ip.overrides", "[::1]:2")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("invalid addresses: [::1]");
    }

    @Test
    void listenersParseHostsPortsAndIpv6() {
        List<Endpoint> endpoints = Endpoint.parseList("plaintext://0.0.0.0:0, INTERNAL://[::1]:9093");

        assertThat(endpoints).containsExactly(new Endpoint("PLAINTEXT", "0.0.0.0", 0), new Endpoint("INTERNAL", "::1", 9093));
        assertThat(endpoints.get(1)).hasToString("INTERNAL://[::1]:9093");
    }

    @Test
    void unknownKeysAreSetAsideNotFatal() {
        BrokerConfig config = BrokerConfig.of(Map.of("log.message.downconversion.enable", "true",
                "num.partitions", "3"));

        assertThat(config.unknownKeys()).containsExactly("log.message.downconversion.enable");
        assertThat(config.get(BrokerConfig.NUM_PARTITIONS)).isEqualTo(3);
    }

    @Test
    void overridesWinOverTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "num.partitions=3\nnode.id=7\n");

        BrokerConfig config = BrokerConfig.load(file, Map.of("num.partitions", "5"));

        assertThat(config.get(BrokerConfig.NUM_PARTITIONS)).isEqualTo(5);
        assertThat(config.get(BrokerConfig.NODE_ID)).isEqualTo(7);
    }

    @Test
    void kafkasScramJaasKeysAreKnownThoughNotNeeded() {
        BrokerConfig config = BrokerConfig.of(Map.of(
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;"));

        assertThat(config.unknownKeys()).isEmpty();
        assertThat(config.plainJaasConfig("SASL_PLAINTEXT")).as("not PLAIN's users").isEmpty();
    }

    @Test
    void theShippedServerPropertiesIsValidAndFullyKnown() throws IOException {
        BrokerConfig config = BrokerConfig.load(Path.of("../config/server.properties"), Map.of());

        assertThat(config.unknownKeys()).isEmpty();
        assertThat(config.advertisedListeners()).containsExactly(new Endpoint("PLAINTEXT", "localhost", 9092));
    }

    @Test
    void theShippedClusterFilesAreValidFullyKnownAndNameOneController() throws IOException {
        for (int node = 0; node < 3; node++) {
            BrokerConfig config = BrokerConfig.load(Path.of("../config/cluster/node-" + node + ".properties"),
                    Map.of());

            assertThat(config.unknownKeys()).isEmpty();
            assertThat(config.get(BrokerConfig.NODE_ID)).isEqualTo(node);
            assertThat(config.isController()).isEqualTo(node == 0);
            assertThat(config.controllerVoter()).isEqualTo(new QuorumVoter(0, "localhost", 9093));
            assertThat(config.advertisedListeners()).extracting(Endpoint::listenerName).containsExactly("PLAINTEXT");
            assertThat(config.get(BrokerConfig.NUM_PARTITIONS)).as("docs/cluster.md's auto-created demo topic")
                    .isEqualTo(3);
            assertThat(config.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR)).isEqualTo(3);
        }
    }

    @Test
    void withoutVotersANodeIsItsOwnClusterWhateverRolesAndListenersACopiedKafkaFileNames() {
        BrokerConfig copied = BrokerConfig.of(Map.of("process.roles", "broker", "controller.listener.names",
                "CONTROLLER", "listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093"));
        assertThat(copied.inCluster()).isFalse();
        assertThat(copied.advertisedListeners()).as("as before these keys were known").containsExactly(
                new Endpoint("PLAINTEXT", "localhost", 9092), new Endpoint("CONTROLLER", "localhost", 9093));

        BrokerConfig config = BrokerConfig.of(Map.of());
        assertThat(config.inCluster()).isFalse();
        assertThat(config.isController()).isFalse();
        assertThat(config.get(BrokerConfig.BROKER_HEARTBEAT_INTERVAL_MS)).isEqualTo(2000);
        assertThat(config.get(BrokerConfig.BROKER_SESSION_TIMEOUT_MS)).isEqualTo(9000);
    }

    @Test
    void theControllersNodeListensOnItsControllerListenerWithoutAdvertisingIt() {
        BrokerConfig config = BrokerConfig.of(Map.of("node.id", "0", "process.roles", "broker,controller",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "controller",
                "listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093"));

        assertThat(config.isController()).isTrue();
        assertThat(config.controllerVoter()).isEqualTo(new QuorumVoter(0, "localhost", 9093));
        assertThat(config.advertisedListeners()).containsExactly(new Endpoint("PLAINTEXT", "localhost", 9092));
    }

    @Test
    void theStandardAuthorizerRunsOnClusterNodesToo() {
        Map<String, String> broker = Map.of("node.id", "1", "process.roles", "broker",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:9094",
                "authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER);
        assertThat(BrokerConfig.of(broker).authorizerEnabled()).isTrue();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("authorizer.class.name",
                "kafka.security.authorizer.AclAuthorizer")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("authorizer.class.name");
        assertThat(BrokerConfig.of(Map.of("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER,
                "super.users", "User:admin")).authorizerEnabled()).isTrue();
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER,
                "super.users", "User:admin; admin")))
                .as("as Kafka's StandardAuthorizer, an entry that is no principal stops the start")
                .isInstanceOf(ConfigException.class).hasMessageContaining("super.users");
    }

    @Test
    void rolesVotersAndControllerListenersMustAgree() {
        Map<String, String> broker = Map.of("node.id", "1", "process.roles", "broker",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:9094");
        assertThat(BrokerConfig.of(broker).isController()).isFalse();

        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "unclean.leader.election.enable", "true")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unclean.leader.election.enable");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "controller.quorum.voters", "0@a:1,2@b:2")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("controller.quorum.voters");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "controller.quorum.voters", "0:a:1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("controller.quorum.voters");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "process.roles", "broker,controller")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("process.roles");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "node.id", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("process.roles");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "process.roles", "controller")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("process.roles");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "controller.listener.names", "")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("controller.listener.names");
        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "listeners",
                "PLAINTEXT://localhost:9094,CONTROLLER://localhost:9095")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listeners");
    }

    @Test
    void aNodeInAClusterMayAdvertiseSeveralListenersOneOfThemTheInterBrokerListener() {
        Map<String, String> broker = Map.of("node.id", "1", "process.roles", "broker",
                "controller.quorum.voters", "0@localhost:9093", "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://:9094,BROKER://:9095",
                "advertised.listeners", "PLAINTEXT://host.example:19094,BROKER://kafka-1:9095");
        assertThat(BrokerConfig.of(broker).advertisedListeners()).hasSize(2);
        assertThat(BrokerConfig.of(broker).interBrokerListenerName()).isEqualTo("PLAINTEXT"); // Kafka's default
        assertThat(BrokerConfig.of(with(broker, "inter.broker.listener.name", "broker")).interBrokerListenerName())
                .isEqualTo("BROKER");

        assertThatThrownBy(() -> BrokerConfig.of(with(broker, "inter.broker.listener.name", "INTERNAL")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("inter.broker.listener.name");
        assertThatThrownBy(() -> BrokerConfig.of(with(with(broker, "listeners", "CLIENT://:9094"),
                "advertised.listeners", "CLIENT://:9094")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("inter.broker.listener.name");
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> changed = new java.util.HashMap<>(base);
        changed.put(key, value);
        return changed;
    }

    @Test
    void connectionLimitsHaveKafkasKeysAndDefaults() {
        BrokerConfig defaults = BrokerConfig.of(Map.of());
        assertThat(defaults.get(BrokerConfig.MAX_CONNECTIONS)).isEqualTo(Integer.MAX_VALUE);
        assertThat(defaults.get(BrokerConfig.MAX_CONNECTIONS_PER_IP)).isEqualTo(Integer.MAX_VALUE);
        assertThat(defaults.get(BrokerConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES)).isEmpty();
        assertThat(defaults.get(BrokerConfig.QUEUED_MAX_REQUEST_BYTES)).isEqualTo(-1L);
        BrokerConfig set = BrokerConfig.of(Map.of("max.connections.per.ip.overrides", "10.0.0.1:5, broker-2:100",
                "queued.max.request.bytes", "209715200", "max.connections", "50",
                "listener.name.client.max.connections", "10"));
        assertThat(set.maxConnections("CLIENT")).isEqualTo(10);
        assertThat(set.maxConnections("BROKER")).as("max.connections, as Kafka falls back").isEqualTo(50);
        assertThat(set.unknownKeys()).isEmpty();
        assertThat(set.get(BrokerConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES))
                .isEqualTo(Map.of("10.0.0.1", 5, "broker-2", 100));
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("max.connections.per.ip.overrides", "10.0.0.1")))
                .hasMessageContaining("max.connections.per.ip.overrides");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("queued.max.request.bytes", "0")))
                .hasMessageContaining("queued.max.request.bytes");
    }
}
