package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LogConfigTest {
    @Test
    void defaultsAreKafkas() {
        LogConfig config = LogConfig.defaults();
        assertThat(config.segmentBytes()).isEqualTo(1073741824);
        assertThat(config.segmentMs()).isEqualTo(604800000L);
        assertThat(config.retentionMs()).isEqualTo(604800000L);
        assertThat(config.retentionBytes()).isEqualTo(-1);
        assertThat(config.logAppendTime()).isFalse();
        assertThat(config.maxMessageBytes()).isEqualTo(1048588);
        assertThat(config.indexIntervalBytes()).isEqualTo(4096);
        assertThat(config.segmentIndexBytes()).isEqualTo(10485760);
        assertThat(config.flushIntervalMessages()).isEqualTo(Long.MAX_VALUE);
        assertThat(config.flushIntervalMs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void topicOverridesUseKafkasNames() {
        LogConfig config = LogConfig.defaults().withOverrides(Map.of(
                "segment.bytes", "1048576", "segment.ms", "3600000", "retention.ms", "-1", "retention.bytes", "5000000",
                "message.timestamp.type", "LogAppendTime", "max.message.bytes", "2000000", "index.interval.bytes", "1024",
                "segment.index.bytes", "4096", "flush.messages", "1", "flush.ms", "1000"));
        assertThat(config).isEqualTo(new LogConfig(1048576, 3600000, -1, 5000000, true, 2000000, 1024, 4096, 1, 1000));
        assertThat(config.withOverrides(Map.of("message.timestamp.type", "CreateTime", "cleanup.policy", "delete")).logAppendTime())
                .isFalse();
    }

    @Test
    void malformedValuesAreRefused() {
        assertThatThrownBy(() -> LogConfig.defaults().withOverrides(Map.of("segment.bytes", "big")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segment.bytes");
        assertThatThrownBy(() -> LogConfig.defaults().withOverrides(Map.of("message.timestamp.type", "Now")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogConfig.defaults().withOverrides(Map.of("segment.bytes", "10")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
