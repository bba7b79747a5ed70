package io.minibroker.broker.replica;

import io.minibroker.broker.log.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FetchDelaysTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition PAYMENTS_0 = new TopicPartition("payments", 0);

    private final FetchDelays delays = new FetchDelays();

    @Test
    void aPartitionTopicOrEverythingIsSlowedAndTheLongestCoveringDelayCounts() {
        delays.slow("orders", 0, Duration.ofMillis(200));
        assertThat(delays.delayMs(ORDERS_0)).isEqualTo(200);
        assertThat(delays.delayMs(ORDERS_1)).isZero();
        delays.slow("orders", -1, Duration.ofMillis(100));
        assertThat(delays.delayMs(ORDERS_0)).isEqualTo(200);
        assertThat(delays.delayMs(ORDERS_1)).isEqualTo(100);
        assertThat(delays.delayMs(PAYMENTS_0)).isZero();
        delays.slow(null, -1, Duration.ofMillis(300));
        assertThat(delays.delayMs(PAYMENTS_0)).isEqualTo(300);
    }

    @Test
    void aZeroDelayLiftsWhatTheSameArgumentsSetAndATopicsLiftCoversItsPartitions() {
        delays.slow("orders", 0, Duration.ofMillis(200));
        delays.slow("orders", 1, Duration.ofMillis(200));
        delays.slow("payments", -1, Duration.ofMillis(50));
        delays.slow("orders", 1, Duration.ZERO);
        assertThat(delays.delayMs(ORDERS_1)).isZero();
        assertThat(delays.delayMs(ORDERS_0)).isEqualTo(200);
        delays.slow("orders", -1, Duration.ZERO);
        assertThat(delays.delayMs(ORDERS_0)).isZero();
        delays.slow(null, -1, Duration.ZERO);
        assertThat(delays.delayMs(PAYMENTS_0)).isZero();
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> delays.slow("orders", 0, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }
}
