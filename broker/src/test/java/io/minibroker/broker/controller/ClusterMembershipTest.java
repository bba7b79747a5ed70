package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.BrokerHeartbeatRequestView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import io.minibroker.protocol.message.view.BrokerRegistrationRequestView;
import io.minibroker.protocol.message.view.BrokerRegistrationResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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

    /**
     * Over the wire, as a starting broker's BrokerLifecycle asks: the controller unfences a new registration only
     * once its heartbeat reports the image version the registration was made at (Kafka: the offset of its
     * RegisterBrokerRecord), and says whether it is caught up with the image as it is now.
     */
    @Test
    void aRegisteredBrokerIsUnfencedOnlyOnceItReportsTheImageItRegisteredAt() throws Exception {
        awaitLive(0, 1, 2);
        try (NodeChannel controller = new NodeChannel("localhost", cluster.controller().boundPort("CONTROLLER"),
                "membership-test", 10_000)) {
            BrokerRegistrationRequestView registration = new BrokerRegistrationRequestView().brokerId(7)
                    .clusterId(BrokerConfig.CLUSTER_ID.defaultValue()).incarnationId(UUID.randomUUID());
            registration.addListener().name("PLAINTEXT").host("localhost").port(1).securityProtocol((short) 0);
            long epoch = new BrokerRegistrationResponseView(
                    controller.send(ApiKey.BROKER_REGISTRATION, registration.struct())).brokerEpoch();

            BrokerHeartbeatResponseView before = heartbeat(controller, epoch, -1);
            assertThat(before.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(before.isCaughtUp()).isFalse();
            assertThat(before.isFenced()).as("no image applied yet").isTrue();
            assertThat(liveIds()).containsExactly(0, 1, 2);

            long version = metadataFetch(controller, -1);
            assertThat(heartbeat(controller, epoch, version).isFenced())
                    .as("its fetches have not told this controller it applied the version").isTrue();
            metadataFetch(controller, version);
            BrokerHeartbeatResponseView after = heartbeat(controller, epoch, version);
            assertThat(after.isCaughtUp()).isTrue();
            assertThat(after.isFenced()).isFalse();
            assertThat(liveIds()).containsExactly(0, 1, 2, 7);
        }
    }

    private static BrokerHeartbeatResponseView heartbeat(NodeChannel controller, long epoch, long appliedVersion)
            throws IOException {
        return new BrokerHeartbeatResponseView(controller.send(ApiKey.BROKER_HEARTBEAT,
                new BrokerHeartbeatRequestView().brokerId(7).brokerEpoch(epoch).currentMetadataOffset(appliedVersion)
                        .wantFence(false).wantShutDown(false).struct()));
    }

    /**
     * Broker 7's metadata fetch, saying it has applied {@code applied}: answers the controller's image version, the
     * high watermark.
     */
    private static long metadataFetch(NodeChannel controller, long applied) throws IOException {
        FetchRequestView fetch = new FetchRequestView().maxWaitMs(0).minBytes(1);
        fetch.replicaState().replicaId(7).replicaEpoch(-1);
        fetch.addTopic().topic(MetadataFetcher.METADATA_TOPIC).topicId(TopicIds.METADATA_TOPIC_ID)
                .addPartition().partition(0).fetchOffset(applied);
        return new FetchResponseView(controller.send(ApiKey.FETCH, fetch.struct()))
                .responses().get(0).partitions().get(0).highWatermark();
    }

    private List<Integer> liveIds() {
        return cluster.controller().membership().liveBrokers().stream()
                .map(BrokerMembership.RegisteredBroker::id).toList();
    }

    private void awaitLive(Integer... ids) {
        await(() -> liveIds().equals(List.of(ids)), "live brokers " + List.of(ids) + ", have " + liveIds());
    }
}
