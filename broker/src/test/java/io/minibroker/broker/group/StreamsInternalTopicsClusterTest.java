package io.minibroker.broker.group;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.quota.QuotaConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streams group's internal topics in a three-node cluster go to the controller in an Envelope as the member's
 * CreateTopics, as Kafka's KafkaApis passes the heartbeat's context to createStreamsInternalTopics: the controller
 * counts them against the member's {@code controller_mutation_rate}. The member's client id has a quota of 1 partition
 * a second (2 windows of 1 s) that the cluster's manual clock never refills once spent.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamsInternalTopicsClusterTest {

    @Test
    void internalTopicsAreCreatedOnTheMembersAccount() throws Exception {
        ManualClock clock = new ManualClock();
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("controller.quota.window.num", "2",
                "broker.heartbeat.interval.ms", "100"), clock);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            admin.createTopics(List.of(new NewTopic("input", 1, (short) 1))).all().get();
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "member")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 1.0))))).all().get();
            try (NodeChannel anyNode = new NodeChannel("localhost", cluster.node(0).boundPort("PLAINTEXT"),
                    "member", 30_000)) {
                // The member's bucket (a burst of 2) spent: its own CreateTopics of 3 partitions leaves it at -1.
                CreateTopicsRequestView burst = new CreateTopicsRequestView().timeoutMs(30_000);
                burst.addTopic().name("burst").numPartitions(3).replicationFactor((short) 1);
                assertThat(new CreateTopicsResponseView(anyNode.send(ApiKey.CREATE_TOPICS, (short) 7, burst.struct()))
                        .topics().get(0).errorCode()).isEqualTo(Errors.NONE.code());
                int coordinatorPort = coordinatorPort(anyNode);
                try (NodeChannel coordinator = new NodeChannel("localhost", coordinatorPort, "member", 30_000)) {
                    await(() -> heartbeatDetail(coordinator).contains("Creation failed"),
                            "the internal topics refused over the member's quota");
                    assertThat(heartbeatDetail(coordinator)).contains("app-changelog (The throttling quota has been "
                            + "exceeded.)", "app-repartition (The throttling quota has been exceeded.)");
                }
            }
            assertThat(admin.listTopics().names().get()).doesNotContain("app-changelog", "app-repartition");
        }
    }

    private static int coordinatorPort(NodeChannel node) throws Exception {
        FindCoordinatorRequestView find = new FindCoordinatorRequestView().key("app").keyType((byte) 0);
        int[] port = new int[1];
        await(() -> {
            try {
                FindCoordinatorResponseView found = new FindCoordinatorResponseView(
                        node.send(ApiKey.FIND_COORDINATOR, (short) 3, find.struct()));
                port[0] = found.port();
                return found.errorCode() == Errors.NONE.code();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "a coordinator for the group");
        return port[0];
    }

    /** A first heartbeat of the word count's member: its MISSING_INTERNAL_TOPICS status's detail. */
    private static String heartbeatDetail(NodeChannel coordinator) {
        try {
            StreamsGroupHeartbeatResponseView joined = new StreamsGroupHeartbeatResponseView(coordinator.send(
                    ApiKey.STREAMS_GROUP_HEARTBEAT, (short) 0, StreamsGroupHeartbeatTest.join("m1", "p1").struct()));
            assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
            return joined.status().get(0).statusDetail();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
