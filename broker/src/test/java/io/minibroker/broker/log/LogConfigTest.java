package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

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
}
