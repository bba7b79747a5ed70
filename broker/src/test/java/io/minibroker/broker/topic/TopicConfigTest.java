package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TopicConfigTest {

    private final BrokerConfig broker = BrokerConfig.of(Map.of("log.retention.hours", "2", "log.segment.bytes", "1048576"));

    @Test
    void brokerDefaultsApplyUnlessTheTopicOverridesThem() {
        LogConfig defaults = TopicConfig.logConfig(broker, Map.of());
        LogConfig overridden = TopicConfig.logConfig(broker, Map.of(
                "segment.bytes", "4096", "retention.ms", "1000", "message.timestamp.type", "LogAppendTime",
                "max.message.bytes", "500", "flush.messages", "1"));

        assertThat(defaults.retentionMs()).isEqualTo(2 * 3_600_000L);
        assertThat(defaults.segmentBytes()).isEqualTo(1_048_576);
        assertThat(defaults.logAppendTime()).isFalse();
        assertThat(overridden.segmentBytes()).isEqualTo(4096);
        assertThat(overridden.retentionMs()).isEqualTo(1000);
        assertThat(overridden.logAppendTime()).isTrue();
        assertThat(overridden.maxMessageBytes()).isEqualTo(500);
        assertThat(overridden.flushIntervalMessages()).isEqualTo(1);
    }

    @Test
    void aCompactOnlyTopicKeepsEverythingUntilCompactionExists() {
        LogConfig compact = TopicConfig.logConfig(broker, Map.of("cleanup.policy", "compact", "retention.ms", "1000"));
        LogConfig both = TopicConfig.logConfig(broker, Map.of("cleanup.policy", "compact,delete", "retention.ms", "1000"));

        assertThat(compact.retentionMs()).isEqualTo(-1);
        assertThat(compact.retentionBytes()).isEqualTo(-1);
        assertThat(both.retentionMs()).isEqualTo(1000);
    }

    @Test
    void invalidOverridesAreNamed() {
        assertThat(TopicConfig.invalidReason(Map.of("retention.ms", "-1", "cleanup.policy", "delete"))).isNull();
        assertThat(TopicConfig.invalidReason(Map.of("segment.bytes", "big"))).contains("segment.bytes");
        assertThat(TopicConfig.invalidReason(Map.of("segment.bytes", "1048575"))).as("below Kafka 4's 1 MiB")
                .contains("segment.bytes");
        assertThat(TopicConfig.invalidReason(Map.of("segment.bytes", "1048576"))).isNull();
        assertThat(TopicConfig.invalidReason(Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "9")))
                .contains("conflict");
        assertThat(TopicConfig.invalidReason(Map.of("message.timestamp.type", "Now"))).contains("message.timestamp.type");
        assertThat(TopicConfig.invalidReason(Map.of("cleanup.policy", "shred"))).contains("cleanup.policy");
        assertThat(TopicConfig.invalidReason(Map.of("no.such.config", "1"))).contains("no.such.config");
    }
}
