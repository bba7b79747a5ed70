package io.minibroker.broker.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Start-up checks of the group keys against Kafka's min/max keys: KafkaConfig.fromProps 4.3.1's messages. */
class GroupKeyRangesTest {

    private static void refused(Map<String, String> properties, String message) {
        assertThatThrownBy(() -> BrokerConfig.of(properties)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @Test
    void groupKeysOutsideTheirMinAndMaxKeysStopTheStart() {
        refused(Map.of("group.consumer.session.timeout.ms", "10000"),
                "group.consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms");
        refused(Map.of("group.consumer.session.timeout.ms", "70000"),
                "group.consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms");
        refused(Map.of("group.consumer.heartbeat.interval.ms", "1000"), "group.consumer.heartbeat.interval.ms must be"
                + " greater than or equal to group.consumer.min.heartbeat.interval.ms");
        refused(Map.of("group.share.session.timeout.ms", "10000"),
                "group.share.session.timeout.ms must be greater than or equal to group.share.min.session.timeout.ms");
        refused(Map.of("group.share.heartbeat.interval.ms", "1000"), "group.share.heartbeat.interval.ms must be"
                + " greater than or equal to group.share.min.heartbeat.interval.ms");
        refused(Map.of("group.streams.session.timeout.ms", "10000"), "group.streams.session.timeout.ms must be"
                + " greater than or equal to group.streams.min.session.timeout.ms");
        refused(Map.of("group.streams.heartbeat.interval.ms", "20000"), "group.streams.heartbeat.interval.ms must be"
                + " less than or equal to group.streams.max.heartbeat.interval.ms");
        refused(Map.of("group.share.record.lock.duration.ms", "1000"), "group.share.record.lock.duration.ms must be"
                + " greater than or equal to group.share.min.record.lock.duration.ms");
        refused(Map.of("group.share.record.lock.duration.ms", "70000"), "group.share.max.record.lock.duration.ms"
                + " must be greater than or equal to group.share.record.lock.duration.ms");
        refused(Map.of("group.share.partition.max.record.locks", "5000"), "group.share.max.partition.max.record.locks"
                + " must be greater than or equal to group.share.partition.max.record.locks");
        refused(Map.of("group.streams.num.standby.replicas", "3"),
                "group.streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas");
        refused(Map.of("group.consumer.min.session.timeout.ms", "50000", "group.consumer.max.session.timeout.ms",
                "40000"), "group.consumer.max.session.timeout.ms must be greater than or equal to"
                + " group.consumer.min.session.timeout.ms");
        refused(Map.of("group.consumer.session.timeout.ms", "5000", "group.consumer.min.session.timeout.ms", "1000",
                "group.consumer.heartbeat.interval.ms", "5000"),
                "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms");
        refused(Map.of("group.share.max.size", "1001"), "group.share.max.size");
        // Kafka's own ranges of the bounding keys
        refused(Map.of("group.share.min.record.lock.duration.ms", "50000"), "group.share.min.record.lock.duration.ms");
        refused(Map.of("group.share.max.partition.max.record.locks", "1000"),
                "group.share.max.partition.max.record.locks");
    }

    @Test
    void aShorterSessionNeedsALowerMinKeyAsWithKafka() {
        BrokerConfig config = BrokerConfig.of(Map.of("group.consumer.min.session.timeout.ms", "1000",
                "group.consumer.session.timeout.ms", "10000", "group.consumer.min.heartbeat.interval.ms", "100",
                "group.consumer.heartbeat.interval.ms", "200"));

        assertThat(config.get(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS)).isEqualTo(10_000);
        assertThat(config.get(GroupKeyRanges.GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS)).isEqualTo(100);
    }
}
