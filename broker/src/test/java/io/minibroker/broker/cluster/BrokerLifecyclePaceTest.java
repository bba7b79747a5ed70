package io.minibroker.broker.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The heartbeat pace: Kafka's fast starting pace only after an answered heartbeat of a broker still fenced. */
class BrokerLifecyclePaceTest {

    private static final long INTERVAL_MS = 2_000;

    @Test
    void aStartingBrokerAnsweredFencedHeartbeatsAtTheStartingPace() {
        assertThat(BrokerLifecycle.pauseMs(true, false, INTERVAL_MS)).isEqualTo(10);
    }

    @Test
    void aFailedHeartbeatWaitsTheIntervalEvenBeforeTheFirstUnfence() {
        assertThat(BrokerLifecycle.pauseMs(false, false, INTERVAL_MS)).isEqualTo(INTERVAL_MS);
    }

    @Test
    void anUnfencedBrokerHeartbeatsAtTheInterval() {
        assertThat(BrokerLifecycle.pauseMs(true, true, INTERVAL_MS)).isEqualTo(INTERVAL_MS);
        assertThat(BrokerLifecycle.pauseMs(false, true, INTERVAL_MS)).isEqualTo(INTERVAL_MS);
    }
}
