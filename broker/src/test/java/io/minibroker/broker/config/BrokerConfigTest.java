package io.minibroker.broker.config;

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
    void advertisedListenersMustNameConfiguredListeners() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of(
                "listeners", "PLAINTEXT://:9092", "advertised.listeners", "EXTERNAL://example.com:19092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("advertised.listeners");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:9092,PLAINTEXT://:9093")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listeners");
    }

    @Test
    void listenersParseHostsPortsAndIpv6() {
        List<Endpoint> endpoints = Endpoint.parseList("plaintext://0.0.0.0:0, INTERNAL://[::1]:9093");

        assertThat(endpoints).containsExactly(new Endpoint("PLAINTEXT", "0.0.0.0", 0), new Endpoint("INTERNAL", "::1", 9093));
        assertThat(endpoints.get(1)).hasToString("INTERNAL://[::1]:9093");
    }

    @Test
    void unknownKeysAreSetAsideNotFatal() {
        BrokerConfig config = BrokerConfig.of(Map.of("process.roles", "broker,controller", "num.partitions", "3"));

        assertThat(config.unknownKeys()).containsExactly("process.roles");
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
    void theShippedServerPropertiesIsValidAndFullyKnown() throws IOException {
        BrokerConfig config = BrokerConfig.load(Path.of("../config/server.properties"), Map.of());

        assertThat(config.unknownKeys()).isEmpty();
        assertThat(config.advertisedListeners()).containsExactly(new Endpoint("PLAINTEXT", "localhost", 9092));
    }
}
