package io.minibroker.broker.replica;

import io.micrometer.core.instrument.Counter;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A SASL cluster with {@code connections.max.reauth.ms} (KIP-368): the brokers' own connections to the controller
 * (metadata fetches, heartbeats, forwarded requests) re-authenticate before their sessions end, as Kafka's
 * inter-broker clients do, so the controller never closes one for an expired session, while the cluster's clock
 * runs through several sessions. Without the brokers' re-authentication the controller closes them.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterReauthenticationTest {

    private static final long SESSION_MS = 60_000;

    @Test
    void theBrokersConnectionsToTheControllerReauthenticateAndAreNeverClosedForAnExpiredSession() throws Exception {
        Map<String, String> settings = SecuredClusters.saslEverywhere("SASL_PLAINTEXT", "PLAIN");
        settings.put("connections.max.reauth.ms", Long.toString(SESSION_MS));
        // The clock runs through minutes: no broker is fenced or dropped from an ISR meanwhile.
        settings.put("broker.session.timeout.ms", "3600000");
        settings.put("replica.lag.time.max.ms", "3600000");
        Map<String, Object> superUser = SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "broker",
                "broker-secret");
        ManualClock clock = new ManualClock();
        try (MiniCluster cluster = MiniCluster.start(3, settings, clock)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            for (int session = 0; session < 3; session++) {
                // Past the point where a client re-authenticates (85-95% of the session), short of its end: each
                // channel's next request re-authenticates first. (A jump past the end would race a request already
                // leaving, which real time never does.) Three such steps outlast the first session twice.
                clock.advance(SESSION_MS * 96 / 100);
                String topic = "after-session-" + session;
                try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 1, superUser))) {
                    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get();
                }
                await(() -> everyNodeKnows(cluster, topic), "every node holds a replica of " + topic);
            }
            assertThat(cluster.controller().membership().liveBrokers()).hasSize(3);
            assertThat(expiredConnectionsKilled(cluster, "CONTROLLER"))
                    .as("the controller closed no broker's connection for an expired session").isZero();
        }
    }

    private static boolean everyNodeKnows(MiniCluster cluster, String topic) {
        for (int node = 0; node < 3; node++) {
            if (SecuredClusters.logEndOffset(cluster, node, topic) < 0) { // no replica log yet
                return false;
            }
        }
        return true;
    }

    private static double expiredConnectionsKilled(MiniCluster cluster, String listener) {
        Counter killed = cluster.node(0).meterRegistry()
                .find("kafka.server.socket.server.metrics.expired.connections.killed.count")
                .tag("listener", listener).counter();
        assertThat(killed).as("the controller listener's counter").isNotNull();
        return killed.count();
    }
}
