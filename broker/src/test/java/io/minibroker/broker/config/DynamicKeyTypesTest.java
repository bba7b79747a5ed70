package io.minibroker.broker.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values of Kafka's dynamic broker configs that this broker does not parse, refused as Kafka 4.3.1's KafkaConfig
 * refuses them (the messages are what KafkaConfig.fromProps threw for each value, run against its jars).
 */
class DynamicKeyTypesTest {

    /** Set for one broker: at the cluster default, a per-broker config is refused before its value is read. */
    private static String reason(String name, String value) {
        return DynamicBrokerConfig.invalidReason(Map.of(name, value), true);
    }

    @Test
    void kafkasTypeAndRangeOfAConfigThisBrokerDoesNotParse() {
        assertThat(reason("background.threads", "0"))
                .isEqualTo("Invalid value 0 for configuration background.threads: Value must be at least 1");
        assertThat(reason("compression.gzip.level", "0")).isEqualTo("Invalid value 0 for configuration"
                + " compression.gzip.level: Value must be between 1 and 9 or equal to -1");
        assertThat(reason("compression.gzip.level", "-1")).isNull();
        assertThat(reason("compression.lz4.level", "18"))
                .isEqualTo("Invalid value 18 for configuration compression.lz4.level: Value must be no more than 17");
        assertThat(reason("compression.zstd.level", "x"))
                .isEqualTo("Invalid value x for configuration compression.zstd.level: Not a number of type INT");
        assertThat(reason("log.preallocate", "maybe")).isEqualTo(
                "Invalid value maybe for configuration log.preallocate: Expected value to be either true or false");
        assertThat(reason("sasl.login.refresh.buffer.seconds", "70000")).isEqualTo("Invalid value 70000 for"
                + " configuration sasl.login.refresh.buffer.seconds: Not a number of type SHORT");
        assertThat(reason("log.local.retention.ms", "-3"))
                .isEqualTo("Invalid value -3 for configuration log.local.retention.ms: Value must be at least -2");
        assertThat(reason("group.coordinator.cached.buffer.max.bytes", "100")).isEqualTo("Invalid value 100 for"
                + " configuration group.coordinator.cached.buffer.max.bytes: Value must be at least 524288");
        assertThat(reason("log.cleaner.io.buffer.load.factor", "abc")).isEqualTo("Invalid value abc for"
                + " configuration log.cleaner.io.buffer.load.factor: Not a number of type DOUBLE");
        assertThat(reason("num.io.threads", "16")).isNull();
    }
}
