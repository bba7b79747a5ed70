package io.minibroker.broker.metrics;

import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Max;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SampledStat} reads as Kafka's Avg and Max stats over the broker metrics' default windows (2 of 30 s) for the
 * same values recorded at the same times, measured at the same times: within a window, across windows, after gaps
 * longer than the span (NaN, as Kafka's), and when values come at a window's very edge.
 */
class SampledStatTest {

    @Test
    void averageAndMaxAreKafkasAvgAndMax() {
        MetricConfig config = new MetricConfig().samples(2).timeWindow(30, TimeUnit.SECONDS);
        Avg kafkaAvg = new Avg();
        Max kafkaMax = new Max();
        SampledStat ours = SampledStat.kafkaDefault();
        Random random = new Random(42);
        long nowMs = 1_000_000;
        int compared = 0;
        int nans = 0;
        for (int i = 0; i < 2000; i++) {
            long step = switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> 30_000; // a window's edge
                case 2 -> 60_000 + random.nextInt(40_000); // beyond the span
                default -> random.nextInt(5_000);
            };
            nowMs += step;
            if (random.nextBoolean()) {
                double value = random.nextInt(2000);
                kafkaAvg.record(config, value, nowMs);
                kafkaMax.record(config, value, nowMs);
                ours.record(value, nowMs);
            }
            // Boxed, so that NaN equals NaN.
            Double avg = kafkaAvg.measure(config, nowMs);
            assertThat(ours.average(nowMs)).as("avg at step %d", i).isEqualTo(avg);
            assertThat(ours.max(nowMs)).as("max at step %d", i).isEqualTo(Double.valueOf(kafkaMax.measure(config, nowMs)));
            compared++;
            nans += avg.isNaN() ? 1 : 0;
        }
        assertThat(nans).as("the script reads empty spans too").isBetween(10, compared - 10);
    }
}
