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
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidUpdateVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DescribeQuorum as kafka-clients' AdminClient reads it: a single node as the one voter of its own quorum, and a
 * cluster's controller as the one voter with the other brokers its observers, each caught up with the image; and a
 * request for another partition answered as Kafka's quorum answers it. The voter's directory id is the zero id at
 * kraft.version 0 and its own (meta.properties) once kraft.version 1 is finalized, as on a Kafka 4.3.1 node upgraded
 * with {@code kafka-features upgrade --feature kraft.version=1}, also after a restart; kraft.version is not downgraded.
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
    void atKraftVersion1TheVoterIsKnownByItsDirectoryIdAlsoAfterARestart() throws Exception {
        Uuid own;
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            own = Uuid.fromString(TestBrokers.directoryId(logDir));
            assertThat(voterDirectory(admin)).as("kraft.version 0").isEqualTo(Uuid.ZERO_UUID);

            TestBrokers.upgradeKraftVersion(admin);
            assertThat(voterDirectory(admin)).as("kraft.version 1").isEqualTo(own);
            // The Nodes are the voter's, as at kraft.version 0: its own listener (Kafka's node names its controller
            // listener at both levels).
            QuorumInfo upgraded = admin.describeMetadataQuorum().quorumInfo().get();
            assertThat(upgraded.nodes()).containsOnlyKeys(1);
            assertThat(upgraded.nodes().get(1).endpoints()).singleElement().satisfies(endpoint -> {
                assertThat(endpoint.listener()).isEqualTo("PLAINTEXT");
                assertThat(endpoint.port()).isEqualTo(broker.boundPort("PLAINTEXT"));
            });
        }
        try (Broker broker = TestBrokers.start(logDir, Map.of()); Admin admin = TestBrokers.admin(broker)) {
            assertThat(voterDirectory(admin)).as("kraft.version 1 after a restart").isEqualTo(own);
            // What kafka-features 4.3.1 printed from a Kafka 4.3.1 node, for a safe downgrade and an unsafe one alike.
            for (FeatureUpdate.UpgradeType type : List.of(FeatureUpdate.UpgradeType.SAFE_DOWNGRADE,
                    FeatureUpdate.UpgradeType.UNSAFE_DOWNGRADE)) {
                assertThatThrownBy(() -> admin.updateFeatures(Map.of("kraft.version",
                        new FeatureUpdate((short) 0, type)), new UpdateFeaturesOptions()).all().get())
                        .hasCauseInstanceOf(InvalidUpdateVersionException.class).cause().hasMessage(
                                "The update failed for all features since the following feature had an error:"
                                        + " Invalid update version 0 for feature kraft.version. Can't downgrade the"
                                        + " version of this feature.");
            }
            assertThat(voterDirectory(admin)).as("still kraft.version 1").isEqualTo(own);
        }
    }

    private static Uuid voterDirectory(Admin admin) throws Exception {
        return admin.describeMetadataQuorum().quorumInfo().get().voters().get(0).replicaDirectoryId();
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
            assertThat(quorum.voters().get(0).replicaDirectoryId()).isEqualTo(Uuid.ZERO_UUID);
            assertTheVoterAloneIsANode(quorum, cluster.controller().boundPort("CONTROLLER"));
            // Each broker fetches naming its log directory's id, as Kafka's brokers name their metadata directory's:
            // DescribeQuorum shows it at either kraft.version, as a Kafka 4.3.1 node showed its broker's.
            List<Uuid> brokerDirectories = List.of(Uuid.fromString(TestBrokers.directoryId(cluster.logDir(1))),
                    Uuid.fromString(TestBrokers.directoryId(cluster.logDir(2))));
            assertThat(quorum.observers()).extracting(QuorumInfo.ReplicaState::replicaDirectoryId)
                    .containsExactlyElementsOf(brokerDirectories);

            // At kraft.version 1 the voter is known by the controller's directory id.
            TestBrokers.upgradeKraftVersion(admin);
            QuorumInfo upgraded = admin.describeMetadataQuorum().quorumInfo().get();
            assertThat(upgraded.voters()).singleElement().satisfies(voter -> assertThat(voter.replicaDirectoryId())
                    .isEqualTo(Uuid.fromString(TestBrokers.directoryId(cluster.logDir(MiniCluster.CONTROLLER_ID)))));
            assertThat(upgraded.observers()).extracting(QuorumInfo.ReplicaState::replicaDirectoryId)
                    .containsExactlyElementsOf(brokerDirectories);
            assertTheVoterAloneIsANode(upgraded, cluster.controller().boundPort("CONTROLLER"));
        }
    }

    /**
     * DescribeQuorum v2's Nodes, as a Kafka 4.3.1 node answered at kraft.version 0 and 1 alike: the voters alone,
     * never the observers, each with its controller listener (at 0 its {@code controller.quorum.voters} entry, at 1
     * the controller's own listener: the same address here).
     */
    private static void assertTheVoterAloneIsANode(QuorumInfo quorum, int controllerPort) {
        assertThat(quorum.nodes()).containsOnlyKeys(MiniCluster.CONTROLLER_ID);
        assertThat(quorum.nodes().get(MiniCluster.CONTROLLER_ID).endpoints()).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.listener()).isEqualTo("CONTROLLER");
            assertThat(endpoint.host()).isEqualTo("localhost");
            assertThat(endpoint.port()).isEqualTo(controllerPort);
        });
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
