package io.minibroker.broker.group;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.transaction.TransactionCoordinator;
import io.minibroker.broker.transaction.TransactionStateTopic;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * FindCoordinator for transactional ids (key type 1) in a three-node cluster, as Kafka answers it: every node names
 * the leader of the id's partition of {@code __transaction_state}, which the first lookup has the controller create
 * with {@code transaction.state.log.*} (answered COORDINATOR_NOT_AVAILABLE meanwhile, and while too few brokers live
 * for its replication factor). That leader loads the partition and coordinates its ids (seen through
 * DescribeTransactions); the other nodes answer NOT_COORDINATOR, and the next leader takes the ids over.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: no live node's session runs out on a loaded machine, moving a coordinator the test did
 * not stop.
 */
@Timeout(120)
class FindTransactionCoordinatorClusterTest {

    private static final int STATE_PARTITIONS = 5;

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 1_500, Map.of(
                "transaction.state.log.num.partitions", Integer.toString(STATE_PARTITIONS),
                "transaction.state.log.replication.factor", "3"));
        cluster = running.cluster();
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void everyNodeNamesTheLeaderOfTheIdsTransactionStatePartition() {
        String transactionalId = "payments-1";
        assertThat(findCoordinator(0, transactionalId).error)
                .as("the first lookup only has the topic created").isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        int coordinator = awaitCoordinator(0, transactionalId);
        for (int node = 1; node < 3; node++) {
            assertThat(awaitCoordinator(node, transactionalId)).as("the coordinator node %d names", node)
                    .isEqualTo(coordinator);
        }
        TopicDescription state = stateTopic();
        assertThat(state.partitions()).hasSize(STATE_PARTITIONS)
                .allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
        assertThat(coordinator).as("the leader of __transaction_state-partitionFor(id)").isEqualTo(state.partitions()
                .get(TransactionCoordinator.partitionFor(transactionalId, STATE_PARTITIONS)).leader().id());
    }

    @Test
    void theLeaderOfThePartitionCoordinatesItsIdsAndItsSuccessorTakesThemOverWhenItStops() {
        String transactionalId = "payments-2";
        findCoordinator(0, transactionalId); // has the topic created
        int coordinator = awaitCoordinator(0, transactionalId);
        await(() -> describeError(coordinator, transactionalId) == Errors.TRANSACTIONAL_ID_NOT_FOUND,
                "the leader to load the id's partition");
        int other = (coordinator + 1) % 3;
        assertThat(describeError(other, transactionalId)).isEqualTo(Errors.NOT_COORDINATOR);

        cluster.stop(coordinator);
        int survivor = other;
        int[] successor = {-1};
        await(() -> {
            Found found = findCoordinator(survivor, transactionalId);
            successor[0] = found.error == Errors.NONE && found.nodeId != coordinator ? found.nodeId : -1;
            return successor[0] >= 0;
        }, "another leader of the id's partition");
        await(() -> describeError(successor[0], transactionalId) == Errors.TRANSACTIONAL_ID_NOT_FOUND,
                "the new leader to load the id's partition");
    }

    @Test
    void aStoppedBrokerStillCountsForTheStateTopicsReplicationFactor() {
        cluster.stop(2); // fenced but registered: as with Kafka's StripedReplicaPlacer, it is given replicas
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");

        assertThat(awaitCoordinator(0, "early")).as("a live leader").isBetween(0, 1);
        assertThat(stateTopic().partitions()).allSatisfy(partition -> {
            assertThat(partition.replicas()).hasSize(3);
            assertThat(partition.isr()).extracting(Node::id).doesNotContain(2);
        });
    }

    @Test
    void noCoordinatorWhileFewerBrokersAreRegisteredThanTheStateTopicsReplicationFactor() throws Exception {
        // Kafka's controller refuses a topic of more replicas than registered brokers (INVALID_REPLICATION_FACTOR):
        // FindCoordinator answers COORDINATOR_NOT_AVAILABLE and creates nothing.
        try (MiniCluster tooSmall = MiniCluster.start(3, Map.of("transaction.state.log.replication.factor", "4"))) {
            MiniCluster full = cluster;
            cluster = tooSmall;
            try {
                for (int attempt = 0; attempt < 3; attempt++) {
                    assertThat(findCoordinator(0, "early").error).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
                }
                try (Admin admin = admin(0)) {
                    assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
                            .as("no state topic of 4 replicas on 3 brokers")
                            .doesNotContain(TransactionStateTopic.NAME);
                }
            } finally {
                cluster = full;
            }
        }
    }

    private record Found(Errors error, int nodeId) {
    }

    private Found findCoordinator(int node, String transactionalId) {
        Struct request = ApiKey.FIND_COORDINATOR.request().newMessage().set("KeyType", (byte) 1)
                .set("CoordinatorKeys", List.of(transactionalId));
        Struct answer = call(node, request).getStructs("Coordinators").get(0);
        return new Found(Errors.forCode(answer.getInt16("ErrorCode")), answer.getInt32("NodeId"));
    }

    private int awaitCoordinator(int node, String transactionalId) {
        int[] found = {-1};
        await(() -> {
            Found answer = findCoordinator(node, transactionalId);
            found[0] = answer.error == Errors.NONE ? answer.nodeId : -1;
            return found[0] >= 0;
        }, "node " + node + " to name the coordinator of " + transactionalId);
        return found[0];
    }

    private Errors describeError(int node, String transactionalId) {
        Struct request = ApiKey.DESCRIBE_TRANSACTIONS.request().newMessage()
                .set("TransactionalIds", List.of(transactionalId));
        Struct answer = call(node, ApiKey.DESCRIBE_TRANSACTIONS, 0, request).getStructs("TransactionStates").get(0);
        return Errors.forCode(answer.getInt16("ErrorCode"));
    }

    private Struct call(int node, Struct request) {
        return call(node, ApiKey.FIND_COORDINATOR, 4, request);
    }

    private Struct call(int node, ApiKey api, int version, Struct request) {
        try (GroupWireClient client = new GroupWireClient(cluster.node(node).boundPort("PLAINTEXT"))) {
            return client.call(api, version, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TopicDescription stateTopic() {
        TopicDescription[] described = new TopicDescription[1];
        await(() -> {
            try (Admin admin = admin(0)) {
                described[0] = admin.describeTopics(List.of(TransactionStateTopic.NAME)).allTopicNames().get()
                        .get(TransactionStateTopic.NAME);
                return described[0].partitions().stream().allMatch(p -> p.leader() != null);
            } catch (Exception e) {
                return false;
            }
        }, "the metadata to describe " + TransactionStateTopic.NAME);
        return described[0];
    }

    private Admin admin(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
