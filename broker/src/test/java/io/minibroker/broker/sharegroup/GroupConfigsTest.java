package io.minibroker.broker.sharegroup;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.share.ShareAutoOffsetReset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group config values as Kafka 4.3.1's GroupConfig.validate answers them with a default broker config (the messages
 * below are what it threw for each value, run against its jars).
 */
class GroupConfigsTest {

    @TempDir
    Path dir;

    private String problem(String name, String value) {
        GroupConfigs configs = GroupConfigs.open(BrokerConfig.of(Map.of()), dir);
        return configs.replace("g", Map.of(name, value), true).message();
    }

    @Test
    void shareConfigsAreBoundedByTheBrokersMinAndMaxKeys() {
        assertThat(problem("share.session.timeout.ms", "10000"))
                .isEqualTo("share.session.timeout.ms must be greater than or equal to group.share.min.session.timeout.ms");
        assertThat(problem("share.session.timeout.ms", "70000"))
                .isEqualTo("share.session.timeout.ms must be less than or equal to group.share.max.session.timeout.ms");
        assertThat(problem("share.heartbeat.interval.ms", "1000")).isEqualTo(
                "share.heartbeat.interval.ms must be greater than or equal to group.share.min.heartbeat.interval.ms");
        assertThat(problem("share.heartbeat.interval.ms", "20000")).isEqualTo(
                "share.heartbeat.interval.ms must be less than or equal to group.share.max.heartbeat.interval.ms");
        assertThat(problem("share.record.lock.duration.ms", "1000")).isEqualTo("share.record.lock.duration.ms"
                + " must be greater than or equal to group.share.min.record.lock.duration.ms");
        assertThat(problem("share.record.lock.duration.ms", "70000")).isEqualTo("share.record.lock.duration.ms"
                + " must be less than or equal to group.share.max.record.lock.duration.ms");
        assertThat(problem("share.partition.max.record.locks", "50")).isEqualTo(
                "Invalid value 50 for configuration share.partition.max.record.locks: Value must be at least 100");
        assertThat(problem("share.partition.max.record.locks", "20000")).isEqualTo("share.partition.max.record.locks"
                + " must be less than or equal to group.share.max.partition.max.record.locks");
        assertThat(problem("share.delivery.count.limit", "1")).isEqualTo(
                "Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2");
        assertThat(problem("share.delivery.count.limit", "11")).isEqualTo(
                "share.delivery.count.limit must be less than or equal to group.share.max.delivery.count.limit");
        assertThat(problem("share.delivery.count.limit", "2")).isNull();
    }

    @Test
    void kafkasOtherGroupConfigNamesAreTakenWithItsTypesAndBounds() {
        assertThat(problem("consumer.assignment.interval.ms", "0")).isNull();
        assertThat(problem("consumer.assignment.interval.ms", "-1")).isEqualTo(
                "Invalid value -1 for configuration consumer.assignment.interval.ms: Value must be at least 0");
        assertThat(problem("share.assignment.interval.ms", "1000")).isNull();
        assertThat(problem("streams.assignment.interval.ms", "20000")).isEqualTo(
                "streams.assignment.interval.ms must be less than or equal to group.streams.max.assignment.interval.ms");
        assertThat(problem("streams.initial.rebalance.delay.ms", "-1")).isEqualTo(
                "Invalid value -1 for configuration streams.initial.rebalance.delay.ms: Value must be at least 0");
        assertThat(problem("share.renew.acknowledge.enable", "FALSE")).isNull();
        assertThat(problem("share.renew.acknowledge.enable", "maybe")).isEqualTo("Invalid value maybe for"
                + " configuration share.renew.acknowledge.enable: Expected value to be either true or false");
        assertThat(problem("share.assignor.offload.enable", "true"))
                .isEqualTo("Unknown group config name: share.assignor.offload.enable");
    }

    /**
     * share.auto.offset.reset as a Kafka 4.3.1 node answered IncrementalAlterConfigs for each value (2026-11-29):
     * lower-case words only, a duration as java.time.Duration reads it, not negative; the value trimmed.
     */
    @Test
    void shareAutoOffsetResetTakesKafkasWordsAndDurations() {
        for (String taken : new String[] {"latest", "earliest", " latest ", "by_duration:PT1M", "by_duration:pt1m",
                "by_duration:PT0S", "by_duration:P2DT3H"}) {
            assertThat(problem("share.auto.offset.reset", taken)).as(taken).isNull();
        }
        for (String refused : new String[] {"by_duration", "by_duration:", "by_duration:xx", "by_duration:-PT1H",
                "none", "LATEST", "BY_DURATION:PT1M"}) {
            assertThat(problem("share.auto.offset.reset", refused)).as(refused).isEqualTo("Invalid value " + refused
                    + " for configuration share.auto.offset.reset: Invalid value `" + refused + "` for configuration"
                    + " share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format"
                    + " 'by_duration:<PnDTnHnMn.nS>'.");
        }
    }

    @Test
    void aGroupsSettingsCarryItsResetStrategy() {
        GroupConfigs configs = GroupConfigs.open(BrokerConfig.of(Map.of()), dir);
        assertThat(configs.settings("g").autoOffsetReset()).isEqualTo(ShareAutoOffsetReset.LATEST);

        assertThat(configs.replace("g", Map.of("share.auto.offset.reset", " by_duration:PT90M "), false).message())
                .isNull();

        assertThat(configs.settings("g").autoOffsetReset()).isEqualTo(
                new ShareAutoOffsetReset(ShareAutoOffsetReset.Strategy.BY_DURATION, Duration.ofMinutes(90)));
        assertThat(configs.settings("other").autoOffsetReset()).isEqualTo(ShareAutoOffsetReset.LATEST);
    }

    @Test
    void everyNameKafkaListsHasAnEffectiveValue() {
        Map<String, String> effective = GroupConfigs.open(BrokerConfig.of(Map.of()), dir).effective("g");

        assertThat(effective.keySet()).containsExactlyElementsOf(GroupConfigs.names());
        assertThat(effective).containsEntry("consumer.assignment.interval.ms", "1000")
                .containsEntry("streams.initial.rebalance.delay.ms", "3000")
                .containsEntry("share.renew.acknowledge.enable", "true");
    }
}
