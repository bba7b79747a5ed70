package io.minibroker.broker.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampledRateTest {

    @Test
    void oneSampleMeasuresAValueAtItsWindowsStartOverOneMillisecondAsKafkas() {
        SampledRate rate = new SampledRate(1, 1000);

        rate.record(500, 10_000);

        assertThat(rate.windowSize(10_000)).isEqualTo(1);
        assertThat(rate.measure(10_000)).isEqualTo(500_000.0);
    }
}
