package io.minibroker.broker.quorum;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.DescribeQuorumRequestView;
import io.minibroker.protocol.message.view.DescribeQuorumResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DescribeQuorum as kafka-clients' AdminClient reads it: a single node as the one voter of its own quorum, and a
 * cluster's controller as the one voter with the other brokers its observers, each caught up with the image; and a
 * request for another partition answered as Kafka's quorum answers it.
 */
@Timeout(120)
class DescribeQuorumTest {

    @TempDir
    Path logDir;

    @Test
    void aSingleNodeIsTheOneVoterOfItsQuorum() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get();

            assertThat(quorum.leaderId()).isEqualTo(1);
            assertThat(quorum.leaderEpoch()).isEqualTo(1);
            assertThat(quorum.observers()).isEmpty();
            assertThat(quorum.voters()).singleElement().satisfies(voter -> {
                assertThat(voter.replicaId()).isEqualTo(1);
                assertThat(voter.logEndOffset()).isEqualTo(quorum.highWatermark());
                assertThat(voter.lastFetchTimestamp()).isPresent();
                assertThat(voter.lastCaughtUpTimestamp()).isPresent();
            });
            assertThat(quorum.nodes()).containsOnlyKeys(1);
            assertThat(quorum.nodes().get(1).endpoints()).singleElement().satisfies(endpoint -> {
                assertThat(endpoint.listener()).isEqualTo("PLAINTEXT");
                assertThat(endpoint.port()).isEqualTo(broker.boundPort("PLAINTEXT"));
            });
        }
    }

    @Test
    void anyOtherPartitionIsOneTheQuorumDoesNotHost() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            DescribeQuorumRequestView request = new DescribeQuorumRequestView();
            request.addTopic().topicName("__cluster_metadata").addPartition().partitionIndex(1);
            client.send(RawClient.request(ApiKey.DESCRIBE_QUORUM, (short) 2, 3, request.struct()));
            DescribeQuorumResponseView response = new DescribeQuorumResponseView(
                    client.receive(ApiKey.DESCRIBE_QUORUM, (short) 2).body());

            assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
            DescribeQuorumResponseView.PartitionData partition = response.topics().get(0).partitions().get(0);
            assertThat(partition.partitionIndex()).isEqualTo(1);
            assertThat(partition.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(partition.errorMessage()).isEqualTo("This server does not host this topic-partition.");
            assertThat(partition.currentVoters()).isEmpty();
            assertThat(response.nodes()).isEmpty();
        }
    }

    @Test
    void aClustersControllerIsTheVoterAndTheOtherBrokersItsObservers() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     "localhost:" + cluster.node(2).boundPort("PLAINTEXT")))) {
            await(() -> observersCaughtUp(admin), "brokers 1 and 2 observe the controller, caught up");
            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get();

            assertThat(quorum.leaderId()).isEqualTo(MiniCluster.CONTROLLER_ID);
            assertThat(quorum.voters()).extracting(QuorumInfo.ReplicaState::replicaId)
                    .containsExactly(MiniCluster.CONTROLLER_ID);
            assertThat(quorum.voters().get(0).replicaDirectoryId()).isEqualTo(new org.apache.kafka.common.Uuid(0, 0));
            assertThat(quorum.nodes()).containsOnlyKeys(MiniCluster.CONTROLLER_ID);
            assertThat(quorum.nodes().get(MiniCluster.CONTROLLER_ID).endpoints()).singleElement()
                    .satisfies(endpoint -> assertThat(endpoint.listener()).isEqualTo("CONTROLLER"));
        }
    }

    private static boolean observersCaughtUp(Admin admin) {
        QuorumInfo quorum;
        try {
            quorum = admin.describeMetadataQuorum().quorumInfo().get();
        } catch (Exception e) {
            return false;
        }
        List<QuorumInfo.ReplicaState> observers = quorum.observers();
        return observers.stream().map(QuorumInfo.ReplicaState::replicaId).toList().equals(List.of(1, 2))
                && observers.stream().allMatch(observer -> observer.lastCaughtUpTimestamp().isPresent()
                && observer.lastFetchTimestamp().isPresent());
    }
}
