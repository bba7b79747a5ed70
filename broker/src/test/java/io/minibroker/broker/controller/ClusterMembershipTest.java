package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes in one JVM register with the controller over the wire and keep their sessions by heartbeats. The
 * cluster runs on a manual clock, so a session runs out when the test moves the clock past it, not when a loaded
 * machine delays a live node's heartbeat.
 */
class ClusterMembershipTest {

    private static final long SESSION_MS = 1_500;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS)), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
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
        long lastHeartbeat = clock.nowMs(); // no time has passed: every heartbeat so far was at this time

        cluster.kill(2);

        sessions.advanceKeepingSessions(SESSION_MS);
        assertThat(liveIds()).as("at %d ms node 2's session has not run out", clock.nowMs() - lastHeartbeat)
                .containsExactly(0, 1, 2);
        sessions.advanceKeepingSessions(1);
        assertThat(liveIds()).as("a moment later it has").containsExactly(0, 1);
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
