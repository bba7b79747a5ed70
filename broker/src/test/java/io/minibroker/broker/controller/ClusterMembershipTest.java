package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.embedded.MiniCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Three nodes in one JVM register with the controller over the wire and keep their sessions by heartbeats. */
class ClusterMembershipTest {

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "1500"));
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void everyNodeRegistersWithItsAdvertisedClientListener() {
        awaitLive(0, 1, 2);
        for (BrokerMembership.RegisteredBroker broker : cluster.controller().membership().liveBrokers()) {
            List<Endpoint> advertised = cluster.node(broker.id()).advertisedListeners();
            assertThat(broker.listeners()).isEqualTo(advertised);
            assertThat(advertised).extracting(Endpoint::listenerName).containsExactly("PLAINTEXT");
        }
    }

    @Test
    void aKilledNodeIsFencedAfterItsSessionAndRejoinsOnRestart() throws Exception {
        awaitLive(0, 1, 2);
        long killedAt = System.nanoTime();

        cluster.kill(2);

        awaitLive(0, 1);
        assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).as("only the session timeout fences it")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1_000));
        cluster.restart(2);
        awaitLive(0, 1, 2);
    }

    @Test
    void aStoppedNodeIsFencedAtOnce() throws Exception {
        awaitLive(0, 1, 2);

        cluster.stop(1);

        assertThat(liveIds()).containsExactly(0, 2);
        cluster.restart(1);
        awaitLive(0, 1, 2);
    }

    private List<Integer> liveIds() {
        return cluster.controller().membership().liveBrokers().stream()
                .map(BrokerMembership.RegisteredBroker::id).toList();
    }

    private void awaitLive(Integer... ids) {
        await(() -> liveIds().equals(List.of(ids)), "live brokers " + List.of(ids) + ", have " + liveIds());
    }
}
