package io.minibroker.broker.quota;

import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.SimpleRate;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class SampledRateTest {

    @Test
    void oneSampleMeasuresAValueAtItsWindowsStartOverOneMillisecondAsKafkas() {
        SampledRate rate = new SampledRate(1, 1000);

        rate.record(500, 10_000);

        assertThat(rate.windowSize(10_000)).isEqualTo(1);
        assertThat(rate.measure(10_000)).isEqualTo(500_000.0);
    }

    /**
     * The same values at the same times measure as Kafka's Rate (a client quota's 11 windows of 1 s, the metrics'
     * default 2 of 30 s) and SimpleRate (a replication quota's): within a window, at a window's edge, after gaps
     * longer than the span, with values taken back. Kafka keeps one window more than its samples and empties a
     * window by the age of its last value, which a rate over only the samples' windows, emptied by their start,
     * measured lower after a window's edge.
     */
    @Test
    void measuresAsKafkasRateAndSimpleRate() {
        for (int[] windows : new int[][] {{11, 1000}, {2, 30_000}}) {
            MetricConfig config = new MetricConfig().samples(windows[0])
                    .timeWindow(windows[1], TimeUnit.MILLISECONDS);
            compare(config, new Rate(), new SampledRate(windows[0], windows[1]));
            compare(config, new SimpleRate(), SampledRate.simple(windows[0], windows[1]));
        }
    }

    private static void compare(MetricConfig config, MeasurableStat kafka, SampledRate ours) {
        Random random = new Random(7);
        long nowMs = 1_000_000;
        long windowMs = config.timeWindowMs();
        for (int i = 0; i < 3000; i++) {
            nowMs += switch (random.nextInt(5)) {
                case 0 -> 0;
                case 1 -> windowMs;
                case 2 -> random.nextLong(config.samples() * windowMs * 2);
                default -> random.nextLong(windowMs);
            };
            if (random.nextBoolean()) {
                double value = random.nextInt(1000) - (random.nextInt(10) == 0 ? 1000 : 0);
                kafka.record(config, value, nowMs);
                ours.record(value, nowMs);
            }
            assertThat(ours.measure(nowMs)).as("%s, %d windows, step %d", kafka.getClass().getSimpleName(),
                    config.samples(), i).isEqualTo(Double.valueOf(kafka.measure(config, nowMs)));
        }
    }
}
