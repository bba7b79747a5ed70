package io.minibroker.broker.quota;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte-rate quota manager against Kafka's own arithmetic: the throttle times of a scripted run of requests
 * equal those of kafka-clients' Rate under a Quota (Kafka's ClientQuotaManager's metric, 11 windows of 1 s) with
 * its throttle formula, on the same times; and the quota that applies is the one Kafka's default callback picks.
 */
class ClientQuotaManagerTest {

    @TempDir
    Path dir;

    private final AtomicLong nowMs = new AtomicLong(1_000_000);

    @Test
    void throttleTimesAreKafkasForTheSameRequestsAtTheSameTimes() throws IOException {
        ClientQuotas quotas = ClientQuotas.open(dir);
        quotas.alter(Map.of(QuotaEntity.of("user", "alice"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 1000.0)));
        ClientQuotaManager manager = manager(quotas);
        KafkaSensor kafka = new KafkaSensor(1000.0, nowMs);

        long[][] script = { // {ms since the last request, bytes}
            {0, 4000}, {100, 4000}, {100, 4000}, {300, 500}, {2000, 9000}, {999, 1}, {1, 1}, {5000, 20_000},
            {12_000, 100}, {0, 15_000}, {700, 15_000}, {11_000, 10_999},
        };
        int throttled = 0;
        for (long[] step : script) {
            nowMs.addAndGet(step[0]);
            int ours = manager.recordAndGetThrottleTimeMs("alice", "app", step[1]);
            assertThat(ours).as("at +%d ms, %d bytes", step[0], step[1]).isEqualTo(kafka.record(step[1]));
            throttled += ours > 0 ? 1 : 0;
        }
        assertThat(throttled).as("the script throttles some requests and not others").isBetween(3, script.length - 3);
    }

    @Test
    void theQuotaThatAppliesIsKafkasDefaultCallbacksChoiceAndClientsShareItsEntitysRate() throws IOException {
        ClientQuotas quotas = ClientQuotas.open(dir);
        Map<QuotaEntity, Map<String, Double>> set = new HashMap<>();
        set.put(QuotaEntity.of("user", "alice"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 10.0));
        set.put(both("alice", "app"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 1e9));
        set.put(QuotaEntity.of("client-id", "app"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 10.0));
        set.put(QuotaEntity.of("user", null), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 1e9));
        set.put(QuotaEntity.of("client-id", "tool"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 10.0));
        quotas.alter(set);
        ClientQuotaManager manager = manager(quotas);

        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 5000)).as("user and client id first").isZero();
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "other", 5000)).as("then the user").isPositive();
        assertThat(manager.recordAndGetThrottleTimeMs("bob", "tool", 5000))
                .as("the default user before any client id").isZero();

        quotas.alter(Map.of(QuotaEntity.of("user", null), nulls()));
        assertThat(manager.recordAndGetThrottleTimeMs("bob", "tool", 5000)).as("then the client id").isPositive();
        assertThat(manager.recordAndGetThrottleTimeMs("carol", "nothing", 5000)).as("no quota").isZero();

        // One rate per user under a user quota: alice's two client ids add up.
        quotas.alter(Map.of(QuotaEntity.of("user", "alice"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 1000.0)));
        ClientQuotaManager fresh = manager(quotas);
        assertThat(fresh.recordAndGetThrottleTimeMs("alice", "a", 6000)).isZero();
        assertThat(fresh.recordAndGetThrottleTimeMs("alice", "b", 6000)).as("12000 bytes over 10 s").isEqualTo(2000);
    }

    @Test
    void nothingIsRecordedWhileNoQuotaOfTheKindIsSet() throws IOException {
        ClientQuotas quotas = ClientQuotas.open(dir);
        quotas.alter(Map.of(QuotaEntity.of("user", "alice"), Map.of(QuotaConfig.CONSUMER_BYTE_RATE, 10.0)));
        ClientQuotaManager manager = manager(quotas);
        assertThat(manager.enabled()).isFalse();
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 1_000_000)).isZero();

        quotas.alter(Map.of(QuotaEntity.of("user", "alice"), Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 1000.0)));
        assertThat(manager.enabled()).isTrue();
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 1000)).as("the megabyte before not counted")
                .isZero();
    }

    private ClientQuotaManager manager(ClientQuotas quotas) {
        return new ClientQuotaManager(QuotaConfig.PRODUCER_BYTE_RATE, quotas, nowMs::get, 11, 1);
    }

    private static QuotaEntity both(String user, String clientId) {
        Map<String, String> entries = new HashMap<>();
        entries.put("user", user);
        entries.put("client-id", clientId);
        return new QuotaEntity(entries);
    }

    private static Map<String, Double> nulls() {
        Map<String, Double> removal = new HashMap<>();
        removal.put(QuotaConfig.PRODUCER_BYTE_RATE, null);
        return removal;
    }

    /** Kafka's quota sensor (ClientQuotaManager's metric config) and its throttle time formula. */
    private static final class KafkaSensor {
        final Time time;
        final Sensor sensor;
        final Rate rate = new Rate();
        final MetricConfig config;

        KafkaSensor(double bound, AtomicLong nowMs) {
            time = new ScriptedTime(nowMs);
            config = new MetricConfig().timeWindow(1, TimeUnit.SECONDS).samples(11).quota(Quota.upperBound(bound));
            Metrics metrics = new Metrics(new MetricConfig(), time);
            sensor = metrics.sensor("quota");
            sensor.add(new MetricName("byte-rate", "test", "", Map.of()), rate, config);
        }

        int record(long bytes) {
            try {
                sensor.record(bytes, time.milliseconds(), true);
                return 0;
            } catch (QuotaViolationException e) {
                double windowMs = rate.windowSize(config, time.milliseconds());
                return (int) Math.round((e.value() - e.bound()) / e.bound() * windowMs);
            }
        }
    }
}
