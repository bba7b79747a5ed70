package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster on a manual clock: a follower that stops fetching leaves the ISR exactly when the clock passes
 * replica.lag.time.max.ms, not a moment before, without the test sleeping. The nodes' heartbeats go on in real time
 * and the test moves the clock less than a session timeout in all, so no broker is fenced meanwhile.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ManualClockIsrTest {

    private static final String TOPIC = "clocked";
    private static final long LAG_MS = 1_000;
    /** The leader checks its followers' lag every half lag (Kafka's period for isr-expiration). */
    private static final long CHECK_MS = LAG_MS / 2;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "replica.lag.time.max.ms", String.valueOf(LAG_MS)), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = admin()) {
            // The first topic's only partition is led by node 0, the controller's node, which the test keeps up.
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aFollowerThatStopsFetchingLeavesTheIsrWhenTheClockPassesTheLag() throws Exception {
        await(() -> partition().isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        assertThat(partition().leader()).isZero();

        cluster.kill(2); // stops fetching at once; its session would end only 9 s of the clock later
        for (long now = CHECK_MS; now <= LAG_MS; now += CHECK_MS) {
            advanceWhileNode1Fetches();
            assertThat(isrShrinks()).as("at %d ms node 2 is not yet %d ms behind", now, LAG_MS).isZero();
        }
        advanceWhileNode1Fetches(); // 1.5 s: node 2 last fetched at 0, node 1 at 1 s

        assertThat(isrShrinks()).isEqualTo(1.0);
        await(() -> partition().isr().equals(List.of(0, 1)), "node 2 to leave the ISR, have " + partition().isr());
    }

    /**
     * Moves the clock to the next lag check, then waits until node 1's next fetch is parked at the leader, so that
     * it fetched at the new time, as a follower on a real clock keeps fetching while time passes.
     */
    private void advanceWhileNode1Fetches() {
        clock.advance(CHECK_MS);
        await(() -> parkedFetchesOnTheLeader() == 1, "node 1's fetch to be parked at the leader");
    }

    private double parkedFetchesOnTheLeader() {
        return cluster.node(0).meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Fetch")
                .gauge().value();
    }

    private double isrShrinks() {
        return cluster.node(0).meterRegistry().get("kafka.server.replicamanager.isrshrinks").counter().count();
    }

    /**
     * As the controller has it: a describeTopics sent to a broker that has not taken the topic's image yet would
     * fail (unknown topic), and one whose image lags would show the ISR from before a change.
     */
    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT")));
    }
}
