package io.minibroker.broker.metadata;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.BrokerIdNotRegisteredException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.minibroker.broker.metadata.DescribeClusterFencedBrokersTest.nodes;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * UnregisterBroker (Admin.unregisterBroker, kafka-cluster.sh unregister) as Kafka 4.3.1's controller answers it: any
 * registered broker is unregistered, live or not, and leaves the ISRs; an id not registered is
 * BROKER_ID_NOT_REGISTERED with Kafka's message. A broker forwards it to the controller.
 */
@Timeout(120)
class UnregisterBrokerTest {

    @TempDir
    Path dir;

    @Test
    void aSingleNodeUnregistersOnlyItself() throws Exception {
        try (Broker broker = TestBrokers.start(dir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            assertNotRegistered(admin, 5);
            admin.unregisterBroker(1).all().get();
            assertThat(nodes(admin, true)).extracting(Node::id).as("registered again at once").containsExactly(1);
        }
    }

    @Test
    void aClustersControllerUnregistersAStoppedOrALiveBrokerAndTakesItOutOfTheIsrs() throws Exception {
        // A long session: the ISR change below is the unregistration's, not the killed broker's session expiring.
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("broker.session.timeout.ms", "60000"));
             Admin viaBroker = adminOf(cluster, 1); Admin viaController = adminOf(cluster, 0)) {
            viaBroker.createTopics(List.of(new NewTopic("t", 1, (short) 3))).all().get();
            await(() -> isr(viaController).size() == 3, "t-0's ISR of three");
            cluster.kill(2);

            viaBroker.unregisterBroker(2).all().get();
            await(() -> isr(viaController).equals(List.of(0, 1)), "broker 2 out of t-0's ISR");
            assertThat(nodes(viaController, true)).extracting(Node::id).containsExactly(0, 1);
            assertNotRegistered(viaBroker, 2);
            assertNotRegistered(viaController, 7);

            // Kafka's controller does not check that the broker has stopped; this broker registers again at its
            // next heartbeat (Kafka's keeps being told STALE_BROKER_EPOCH: docs/compatibility.md).
            viaController.unregisterBroker(1).all().get();
            await(() -> nodes(viaController, false).stream().map(Node::id).toList().equals(List.of(0, 1)),
                    "broker 1 registered and live again");
        }
    }

    private static void assertNotRegistered(Admin admin, int brokerId) {
        assertThatThrownBy(() -> admin.unregisterBroker(brokerId).all().get())
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(BrokerIdNotRegisteredException.class)
                .hasMessage("Broker ID " + brokerId + " is not currently registered");
    }

    private static List<Integer> isr(Admin admin) {
        try {
            return admin.describeTopics(List.of("t")).allTopicNames().get().get("t").partitions().get(0).isr()
                    .stream().map(Node::id).sorted().toList();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Admin adminOf(MiniCluster cluster, int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
