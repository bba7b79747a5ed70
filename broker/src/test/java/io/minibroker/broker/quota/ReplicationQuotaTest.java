package io.minibroker.broker.quota;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.ReplicationQuotaMeters;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-73's throttled-replica lists as Kafka's TopicConfigHandler reads them for one broker, and the replication
 * quota's decision as Kafka's ReplicationQuotaManager makes it: the rate over {@code replication.quota.window.num}
 * windows (at least all but one counted) against the throttled rate, on a manual clock; and the lifetime of its
 * byte-rate metric, Kafka's sensor's.
 */
class ReplicationQuotaTest {

    private static final String KEY = TopicConfig.LEADER_REPLICATION_THROTTLED_REPLICAS;
    private static final String BYTE_RATE = "kafka.server.leaderreplication.byte.rate";

    @Test
    void aListThrottlesThePartitionsPairedWithThisBroker() {
        ThrottledReplicas onBroker1 = ThrottledReplicas.parse("0:1,1:2, 2:1", 1);
        assertThat(onBroker1.throttles(0)).isTrue();
        assertThat(onBroker1.throttles(1)).as("paired with broker 2").isFalse();
        assertThat(onBroker1.throttles(2)).as("spaces around a pair, as Kafka trims them").isTrue();
        assertThat(ThrottledReplicas.parse("0:1,1:2", 3).throttles(0)).isFalse();
    }

    @Test
    void aStarThrottlesEveryPartitionAndNothingThrottlesNone() {
        assertThat(ThrottledReplicas.parse("*", 7).throttles(0)).isTrue();
        assertThat(ThrottledReplicas.parse(" * ", 7).throttles(41)).isTrue();
        assertThat(ThrottledReplicas.parse("", 7).throttles(0)).isFalse();
        assertThat(ThrottledReplicas.parse(null, 7).throttles(0)).isFalse();
    }

    @Test
    void aPartitionIsThrottledByItsTopicsConfig() {
        Map<String, Map<String, String>> topics = Map.of("moving", Map.of(KEY, "0:5,2:5"), "still", Map.of());
        ReplicationQuota quota = new ReplicationQuota(KEY, 5, topic -> Optional.ofNullable(topics.get(topic)),
                () -> 100, () -> 0, 11, 1);
        assertThat(quota.isThrottled(new TopicPartition("moving", 0))).isTrue();
        assertThat(quota.isThrottled(new TopicPartition("moving", 1))).isFalse();
        assertThat(quota.isThrottled(new TopicPartition("still", 0))).isFalse();
        assertThat(quota.isThrottled(new TopicPartition("unknown", 0))).isFalse();
    }

    @Test
    void aChangedListIsReadAnew() {
        Map<String, String> overrides = new ConcurrentHashMap<>(Map.of(KEY, "0:5"));
        ReplicationQuota quota = new ReplicationQuota(KEY, 5, topic -> Optional.of(overrides), () -> 100, () -> 0,
                11, 1);
        assertThat(quota.isThrottled(new TopicPartition("moving", 1))).isFalse();
        overrides.put(KEY, "0:5,1:5");
        assertThat(quota.isThrottled(new TopicPartition("moving", 1))).isTrue();
        overrides.put(KEY, "");
        assertThat(quota.isThrottled(new TopicPartition("moving", 0))).as("the throttle removed").isFalse();
    }

    /**
     * A list deleted from the topic's config (IncrementalAlterConfigs DELETE, as {@code kafka-reassign-partitions.sh
     * --verify} removes the throttle: the overrides without the key) is dropped, as Kafka's TopicConfigHandler calls
     * removeThrottle.
     */
    @Test
    void aRemovedListIsDropped() {
        Map<String, String> overrides = new ConcurrentHashMap<>(Map.of(KEY, "0:5"));
        ReplicationQuota quota = new ReplicationQuota(KEY, 5, topic -> Optional.of(overrides), () -> 100, () -> 0,
                11, 1);
        assertThat(quota.isThrottled(new TopicPartition("moving", 0))).isTrue();
        assertThat(quota.keptTopics()).containsExactly("moving");

        overrides.remove(KEY);
        assertThat(quota.isThrottled(new TopicPartition("moving", 0))).as("no longer throttled").isFalse();
        assertThat(quota.keptTopics()).as("nor its list kept").isEmpty();
    }

    /**
     * Kafka's ReplicationQuotaManager bounds a SimpleRate: the bytes over the time since the oldest window began, at
     * least one window (where a client quota's Rate counts at least all windows but one).
     */
    @Test
    void theQuotaIsExceededWhileTheRateOverTheWindowsIsAboveTheThrottledRate() {
        ManualClock clock = new ManualClock(0);
        ReplicationQuota quota = new ReplicationQuota(KEY, 0, topic -> Optional.empty(), () -> 100, clock::nowMs,
                11, 1);
        quota.record(50);
        assertThat(quota.isQuotaExceeded()).as("50 B over at least one window of 1 s: 50 B/s").isFalse();
        quota.record(60);
        assertThat(quota.isQuotaExceeded()).as("110 B over 1 s: 110 B/s").isTrue();

        clock.advance(500);
        assertThat(quota.isQuotaExceeded()).as("still over the one window").isTrue();
        clock.advance(600);
        assertThat(quota.isQuotaExceeded()).as("110 B over 1.1 s: 100 B/s, not above").isFalse();
        quota.record(1000);
        clock.advance(9_900);
        assertThat(quota.isQuotaExceeded()).as("11 s after the first bytes they are gone: 1000 B over 9.9 s").isTrue();
        clock.advance(200);
        assertThat(quota.isQuotaExceeded()).as("1000 B over 10.1 s").isFalse();
    }

    /**
     * The byte-rate lives with Kafka's sensor: made at the first check or record, kept by each record (0 bytes too,
     * as every follower fetch a leader answers records), dropped once more than an hour passed since the last record,
     * when Kafka's own Sensor (3600 s of inactivity, the same records on the same clock) says it has expired; the next
     * check makes it anew, empty.
     */
    @Test
    void theByteRateComesWithTheFirstCheckOrRecordAndGoesAnHourAfterTheLastRecord() {
        AtomicLong nowMs = new AtomicLong(1_000_000);
        ScriptedTime time = new ScriptedTime(nowMs);
        Sensor kafka = new Metrics(new MetricConfig(), List.of(), time, false).sensor("LeaderReplication", null,
                3600);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ReplicationQuota quota = new ReplicationQuota(KEY, 0, topic -> Optional.empty(), () -> 100, nowMs::get, 11, 1);
        quota.exportTo(new ReplicationQuotaMeters(registry, "LeaderReplication"));
        assertThat(registry.find(BYTE_RATE).gauge()).as("no sensor before the first check").isNull();

        assertThat(quota.isQuotaExceeded()).isFalse();
        assertThat(registry.get(BYTE_RATE).gauge().value()).isZero();
        nowMs.addAndGet(60_000);
        quota.record(0);
        kafka.record(0, nowMs.get());
        nowMs.addAndGet(3_600_000);
        quota.expireIdle();
        assertThat(kafka.hasExpired()).isFalse();
        assertThat(registry.find(BYTE_RATE).gauge()).as("an hour since the last record: kept").isNotNull();

        quota.record(500);
        kafka.record(500, nowMs.get());
        assertThat(registry.get(BYTE_RATE).gauge().value()).as("500 B over at least one window of 1 s")
                .isEqualTo(500.0);
        nowMs.addAndGet(3_600_001);
        quota.isQuotaExceeded(); // a check keeps nothing alive
        quota.expireIdle();
        assertThat(kafka.hasExpired()).isTrue();
        assertThat(registry.find(BYTE_RATE).gauge()).as("idle for more than an hour: dropped").isNull();

        quota.isQuotaExceeded();
        assertThat(registry.get(BYTE_RATE).gauge().value()).as("made anew, empty").isZero();
    }

    @Test
    void withoutAThrottledRateNothingIsEverExceededAndANewRateAppliesAtOnce() {
        AtomicLong rate = new AtomicLong(Long.MAX_VALUE);
        ReplicationQuota quota = new ReplicationQuota(KEY, 0, topic -> Optional.empty(), rate::get, () -> 0, 11, 1);
        quota.record(Integer.MAX_VALUE);
        assertThat(quota.isQuotaExceeded()).isFalse();

        rate.set(1_000);
        assertThat(quota.isQuotaExceeded()).as("the bytes recorded before count against the new rate").isTrue();
    }
}
