package io.minibroker.broker.quota;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.metrics.ClientQuotaMeters;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.TokenBucket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code controller_mutation_rate} against Kafka's own arithmetic: a scripted run of requests, each a few topics of
 * some partitions, is refused, let through and throttled as kafka-clients' TokenBucket under a Quota decides it on the
 * same times, with Kafka's StrictControllerMutationQuota and PermissiveControllerMutationQuota steps (check, then
 * record unchecked; record, then check) and ControllerMutationQuotaManager.throttleTimeMs; and a quota of one client
 * id does not touch another's.
 */
class ControllerMutationQuotasTest {

    private static final short STRICT = ControllerMutationQuotas.CREATE_TOPICS_STRICT_SINCE;
    private static final short PERMISSIVE = (short) (STRICT - 1);

    @TempDir
    Path dir;

    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final ScriptedTime time = new ScriptedTime(nowMs);

    private ControllerMutationQuotas quotas(double rate) throws IOException {
        ClientQuotas quotas = ClientQuotas.open(dir);
        quotas.alter(Map.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, "admin"),
                Map.of(QuotaConfig.CONTROLLER_MUTATION_RATE, rate)));
        return new ControllerMutationQuotas(quotas, time::milliseconds, 11, 1);
    }

    /** Kafka's sensor for one client: a TokenBucket under the quota, 11 windows of 1 s. */
    private Sensor kafkaSensor(double rate) {
        MetricConfig config = new MetricConfig().timeWindow(1, TimeUnit.SECONDS).samples(11)
                .quota(Quota.upperBound(rate));
        Sensor sensor = new Metrics(new MetricConfig(), time).sensor("mutations");
        sensor.add(new MetricName("tokens", "test", "", Map.of()), new TokenBucket(), config);
        return sensor;
    }

    /** One topic through Kafka's steps: -1 if let through, else the throttle time it is refused with. */
    private long kafkaStrict(Sensor sensor, int permits) {
        try {
            sensor.checkQuotas(time.milliseconds());
            sensor.record(permits, time.milliseconds(), false);
            return -1;
        } catch (QuotaViolationException e) {
            return kafkaThrottleMs(e);
        }
    }

    /** One topic through Kafka's permissive steps: the throttle time it leaves (0: none). */
    private long kafkaPermissive(Sensor sensor, int permits) {
        try {
            sensor.record(permits, time.milliseconds(), true);
            return 0;
        } catch (QuotaViolationException e) {
            return kafkaThrottleMs(e);
        }
    }

    private static long kafkaThrottleMs(QuotaViolationException e) {
        return Math.round(-e.value() / e.bound() * 1000);
    }

    @Test
    void strictRequestsAreRefusedAndThrottledAsKafkasTokenBucketDecides() throws IOException {
        ControllerMutationQuotas ours = quotas(2);
        Sensor kafka = kafkaSensor(2);
        int[][] script = { // {ms since the last request, partitions of each topic...}
            {0, 30}, {0, 1}, {1500, 1, 1}, {2500, 4}, {0, 5, 5}, {10_000, 12, 12}, {200, 3}, {20_000, 22}, {0, 1},
        };
        int refused = 0;
        for (int[] step : script) {
            nowMs.addAndGet(step[0]);
            ControllerMutationQuotas.Quota quota = ours.newQuotaFor("ANONYMOUS", "admin", STRICT, STRICT);
            long kafkaThrottle = 0;
            for (int topic = 1; topic < step.length; topic++) {
                long kafkaOutcome = kafkaStrict(kafka, step[topic]);
                assertThat(quota.record(step[topic])).as("at +%d ms, %d partitions", step[0], step[topic])
                        .isEqualTo(kafkaOutcome < 0);
                if (kafkaOutcome >= 0) {
                    kafkaThrottle = kafkaOutcome;
                    refused++;
                }
            }
            assertThat(quota.throttleTimeMs()).as("the answer's throttle time at +%d ms", step[0])
                    .isEqualTo(kafkaThrottle);
        }
        assertThat(refused).as("the script refuses some topics and lets others through").isBetween(3, 6);
    }

    /**
     * Kafka's {@code tokens} metric, per entity: the client's bucket after each step of a strict script, as Kafka's
     * TokenBucket measures under the same quota and windows; a client without a quota of its own (once one is set
     * for anyone) reads the burst of Kafka's bucket bounded at Long.MAX_VALUE; a changed quota is measured under at
     * once, as Kafka updates its sensors' configs.
     */
    @Test
    void theTokensMetricIsKafkasTokenBucket() throws IOException {
        ClientQuotas clientQuotas = ClientQuotas.open(dir);
        clientQuotas.alter(Map.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, "admin"),
                Map.of(QuotaConfig.CONTROLLER_MUTATION_RATE, 2.0)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ControllerMutationQuotas ours = new ControllerMutationQuotas(clientQuotas, time::milliseconds, 11, 1,
                ClientQuotaMeters.controllerMutation(registry, time::milliseconds));
        Metrics kafkaMetrics = new Metrics(new MetricConfig(), time);
        MetricName tokens = new MetricName("tokens", "ControllerMutation", "", Map.of());
        Sensor kafka = kafkaMetrics.sensor("admin");
        kafka.add(tokens, new TokenBucket(), bucketConfig(2));
        int[][] script = {{0, 30}, {0, 1}, {1500, 1, 1}, {2500, 4}, {10_000, 12, 12}, {200, 3}, {20_000, 22}};
        for (int[] step : script) {
            nowMs.addAndGet(step[0]);
            ControllerMutationQuotas.Quota quota = ours.newQuotaFor("ANONYMOUS", "admin", STRICT, STRICT);
            for (int topic = 1; topic < step.length; topic++) {
                quota.record(step[topic]);
                kafkaStrict(kafka, step[topic]);
            }
            assertThat(tokensGauge(registry, "admin")).as("at +%d ms", step[0])
                    .isEqualTo((double) kafkaMetrics.metric(tokens).metricValue());
        }
        nowMs.addAndGet(700);
        assertThat(tokensGauge(registry, "admin")).as("refilled on reading").isEqualTo(
                (double) kafkaMetrics.metric(tokens).metricValue());

        clientQuotas.alter(Map.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, "admin"),
                Map.of(QuotaConfig.CONTROLLER_MUTATION_RATE, 5.0)));
        kafkaMetrics.metric(tokens).config(bucketConfig(5));
        nowMs.addAndGet(300);
        assertThat(tokensGauge(registry, "admin")).as("under the new quota").isEqualTo(
                (double) kafkaMetrics.metric(tokens).metricValue());

        Sensor unbounded = kafkaMetrics.sensor("other");
        MetricName otherTokens = new MetricName("tokens", "ControllerMutation", "", Map.of("client-id", "other"));
        unbounded.add(otherTokens, new TokenBucket(), bucketConfig(Long.MAX_VALUE));
        ours.newQuotaFor("ANONYMOUS", "other", STRICT, STRICT).record(7);
        unbounded.record(7, nowMs.get(), false);
        assertThat(tokensGauge(registry, "other")).isEqualTo((double) kafkaMetrics.metric(otherTokens).metricValue());
    }

    private static MetricConfig bucketConfig(double rate) {
        return new MetricConfig().timeWindow(1, TimeUnit.SECONDS).samples(11).quota(Quota.upperBound(rate));
    }

    private static double tokensGauge(SimpleMeterRegistry registry, String clientId) {
        return registry.get("kafka.server.controllermutation.tokens").tag("user", "").tag("client-id", clientId)
                .gauge().value();
    }

    @Test
    void permissiveRequestsGoThroughWithKafkasThrottleTime() throws IOException {
        ControllerMutationQuotas ours = quotas(2);
        Sensor kafka = kafkaSensor(2);
        int[][] script = {{0, 30}, {0, 1}, {1500, 1, 1}, {10_000, 40}, {0, 2}};
        for (int[] step : script) {
            nowMs.addAndGet(step[0]);
            ControllerMutationQuotas.Quota quota = ours.newQuotaFor("ANONYMOUS", "admin", PERMISSIVE, STRICT);
            long kafkaThrottle = 0;
            for (int topic = 1; topic < step.length; topic++) {
                assertThat(quota.record(step[topic])).isTrue();
                long throttle = kafkaPermissive(kafka, step[topic]);
                kafkaThrottle = throttle > 0 ? throttle : kafkaThrottle;
            }
            assertThat(quota.throttleTimeMs()).as("at +%d ms", step[0]).isEqualTo(kafkaThrottle);
        }
    }

    @Test
    void theThrottleTimeCountsDownAndOtherClientsAreUntouched() throws IOException {
        ControllerMutationQuotas ours = quotas(2);
        assertThat(ours.newQuotaFor("ANONYMOUS", "admin", STRICT, STRICT).record(30)).isTrue(); // 22 - 30: -8
        ControllerMutationQuotas.Quota refused = ours.newQuotaFor("ANONYMOUS", "admin", STRICT, STRICT);
        assertThat(refused.record(1)).isFalse();
        assertThat(refused.throttleTimeMs()).isEqualTo(4000);
        nowMs.addAndGet(1000);
        assertThat(refused.throttleTimeMs()).as("what is left of it").isEqualTo(3000);

        ControllerMutationQuotas.Quota other = ours.newQuotaFor("ANONYMOUS", "other", STRICT, STRICT);
        assertThat(other.bounded()).as("no quota for that client id").isFalse();
        assertThat(other.record(1_000_000)).isTrue();
        assertThat(other.throttleTimeMs()).isZero();
        nowMs.addAndGet(3000);
        assertThat(ours.newQuotaFor("ANONYMOUS", "admin", STRICT, STRICT).record(1)).as("back to zero: let through")
                .isTrue();
    }
}
