package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
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

    /**
     * Every override the validation accepts must also make a log config: an override stored first and applied after
     * (IncrementalAlterConfigs) that the log refused closed the client's connection and stopped the broker's next
     * start. The values are each key's lowest that Kafka 4.3.1's LogConfig accepts.
     */
    @Test
    void eachKeysLowestAcceptedValueMakesALogConfig() {
        Map<String, String> lowest = Map.ofEntries(
                Map.entry("max.message.bytes", "0"), Map.entry("flush.ms", "0"), Map.entry("flush.messages", "1"),
                Map.entry("segment.index.bytes", "4"), Map.entry("index.interval.bytes", "0"),
                Map.entry("segment.ms", "1"), Map.entry("segment.jitter.ms", "0"),
                Map.entry("message.timestamp.before.max.ms", "0"), Map.entry("message.timestamp.after.max.ms", "0"),
                Map.entry("delete.retention.ms", "0"), Map.entry("min.compaction.lag.ms", "0"),
                Map.entry("max.compaction.lag.ms", "1"), Map.entry("min.cleanable.dirty.ratio", "0"),
                Map.entry("file.delete.delay.ms", "0"), Map.entry("retention.ms", "-1"),
                Map.entry("retention.bytes", "-1"));
        for (Map.Entry<String, String> override : lowest.entrySet()) {
            Map<String, String> overrides = Map.of(override.getKey(), override.getValue());
            assertThat(TopicConfig.invalidReason(overrides)).as(override.toString()).isNull();
            assertThat(TopicConfig.logConfig(broker, overrides)).as(override.toString()).isNotNull();
        }
    }

    @Test
    void theSegmentJitterDefaultsToLogRollJitterMsElseHours() {
        BrokerConfig hours = BrokerConfig.of(Map.of("log.roll.jitter.hours", "2"));
        BrokerConfig both = BrokerConfig.of(Map.of("log.roll.jitter.hours", "2", "log.roll.jitter.ms", "5000"));

        assertThat(TopicConfig.logConfig(broker, Map.of()).segmentJitterMs()).isZero();
        assertThat(TopicConfig.logConfig(hours, Map.of()).segmentJitterMs()).isEqualTo(2 * 3_600_000L);
        assertThat(TopicConfig.logConfig(both, Map.of()).segmentJitterMs()).isEqualTo(5000);
        assertThat(TopicConfig.logConfig(both, Map.of("segment.jitter.ms", "7")).segmentJitterMs()).isEqualTo(7);
        assertThat(TopicConfig.effective(both, Map.of())).containsEntry("segment.jitter.ms", "5000");
    }

    @Test
    void brokerDefaultsOfZeroThatKafkaAcceptsMakeALogConfig() {
        BrokerConfig zeros = BrokerConfig.of(Map.of("log.flush.interval.ms", "0", "message.max.bytes", "0"));

        LogConfig config = TopicConfig.logConfig(zeros, Map.of());

        assertThat(config.flushIntervalMs()).isZero();
        assertThat(config.maxMessageBytes()).isZero();
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

    /**
     * What Kafka 4.3.1's LogConfig.validate answered for the same single override (run against its jars): null where
     * it accepted it, else its message word for word.
     */
    @Test
    void boundsAndMessagesAreKafkas() {
        String[][] cases = {
                {"flush.ms", "0", null},
                {"flush.ms", "-1", "Invalid value -1 for configuration flush.ms: Value must be at least 0"},
                {"flush.messages", "0", "Invalid value 0 for configuration flush.messages: Value must be at least 1"},
                {"cleanup.policy", "", null},
                {"cleanup.policy", "compact, delete", null},
                {"cleanup.policy", "delete,delete", null},
                {"cleanup.policy", "foo",
                        "Invalid value foo for configuration cleanup.policy: String must be one of: compact, delete"},
                {"retention.ms", "-2", "Invalid value -2 for configuration retention.ms: Value must be at least -1"},
                {"retention.bytes", "-2", null},
                {"retention.bytes", "-200", null},
                {"retention.ms", "abc", "Invalid value abc for configuration retention.ms: Not a number of type LONG"},
                {"segment.bytes", "abc", "Invalid value abc for configuration segment.bytes: Not a number of type INT"},
                {"segment.ms", "0", "Invalid value 0 for configuration segment.ms: Value must be at least 1"},
                {"min.cleanable.dirty.ratio", "1.5",
                        "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1"},
                {"min.cleanable.dirty.ratio", "1", null},
                {"min.cleanable.dirty.ratio", "x",
                        "Invalid value x for configuration min.cleanable.dirty.ratio: Not a number of type DOUBLE"},
                {"compression.type", "bogus", "Invalid value bogus for configuration compression.type: String must be"
                        + " one of: uncompressed, zstd, lz4, snappy, gzip, producer"},
                {"message.timestamp.type", "createtime", "Invalid value createtime for configuration"
                        + " message.timestamp.type: String must be one of: CreateTime, LogAppendTime"},
                {"foo.bar", "1", "Unknown topic config name: foo.bar"},
                {"preallocate", "yes",
                        "Invalid value yes for configuration preallocate: Expected value to be either true or false"},
                {"leader.replication.throttled.replicas", "0:1,bad", "Invalid value [0:1, bad] for configuration"
                        + " leader.replication.throttled.replicas: leader.replication.throttled.replicas must be the"
                        + " literal '*' or a list of replicas in the following format:"
                        + " [partitionId]:[brokerId],[partitionId]:[brokerId],..."},
                {"compression.gzip.level", "0", "Invalid value 0 for configuration compression.gzip.level:"
                        + " Value must be between 1 and 9 or equal to -1"},
                {"compression.lz4.level", "18",
                        "Invalid value 18 for configuration compression.lz4.level: Value must be no more than 17"},
                {"compression.zstd.level", "23",
                        "Invalid value 23 for configuration compression.zstd.level: Value must be no more than 22"},
                {"min.compaction.lag.ms", "-1",
                        "Invalid value -1 for configuration min.compaction.lag.ms: Value must be at least 0"},
                // as a Kafka 4.3.1 node answered them (session 26): the item a list refuses, a DOUBLE as parsed
                {"cleanup.policy", "delete,compact,foo",
                        "Invalid value foo for configuration cleanup.policy: String must be one of: compact, delete"},
                {"min.cleanable.dirty.ratio", "-5",
                        "Invalid value -5.0 for configuration min.cleanable.dirty.ratio: Value must be at least 0"},
                {"min.cleanable.dirty.ratio", "2147483648", "Invalid value 2.147483648E9 for configuration"
                        + " min.cleanable.dirty.ratio: Value must be no more than 1"},
                {"compression.lz4.level", "0",
                        "Invalid value 0 for configuration compression.lz4.level: Value must be at least 1"},
        };
        for (String[] c : cases) {
            assertThat(TopicConfig.invalidReason(Map.of(c[0], c[1]))).as(c[0] + "=" + c[1]).isEqualTo(c[2]);
        }
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("retention.ms", null);
        assertThat(TopicConfig.invalidReason(nullValue))
                .isEqualTo("Null value not supported for topic configs: retention.ms");
    }
}
