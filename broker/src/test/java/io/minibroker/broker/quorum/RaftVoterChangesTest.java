package io.minibroker.broker.quorum;

import io.minibroker.broker.cluster.SilentNode;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.network.RefusingPort;
import io.minibroker.broker.replica.ScriptedPeer;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddRaftVoterRequestView;
import io.minibroker.protocol.message.view.AddRaftVoterResponseView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.message.view.RemoveRaftVoterRequestView;
import io.minibroker.protocol.message.view.RemoveRaftVoterResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AddRaftVoter and RemoveRaftVoter on the wire, each refusal as a Kafka 4.3.1 static quorum (controller.quorum.voters,
 * kraft.version 0) answers it, in Kafka's order: another cluster's id, then a voter without a directory id (the zero
 * id DescribeQuorum shows for the static voter among them), then for AddRaftVoter a voter without an endpoint on the
 * quorum's listener, and last the static quorum itself. Once kraft.version 1 is finalized, as that node answered after
 * {@code kafka-features upgrade --feature kraft.version=1}: the same first checks, then Kafka's checks of its voter set
 * of one (no voter can be removed; the voter's id is a duplicate; any other node is asked for its ApiVersions, and is
 * refused for its answer, at best as no caught-up replica). A single node answers; a cluster's broker forwards them
 * to the controller, whose listener is the quorum's.
 */
@Timeout(120)
class RaftVoterChangesTest {

    private static final String CLUSTER_ID = "voters-test-cluster";
    private static final UUID SOME_DIRECTORY = UUID.fromString("5c3c0ac4-2bd2-4f5b-a0c5-a6b0a5d1e0b1");

    @TempDir
    Path logDir;

    @Test
    void aSingleNodeRefusesARemovalAsAStaticQuorum() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("cluster.id", CLUSTER_ID));
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            assertRemoval(client, null, 2, ReplicaKey.NO_DIRECTORY, Errors.INVALID_REQUEST,
                    "Remove voter request didn't include a valid voter");
            assertRemoval(client, null, 1, ReplicaKey.NO_DIRECTORY, Errors.INVALID_REQUEST,
                    "Remove voter request didn't include a valid voter");
            assertRemoval(client, CLUSTER_ID, -1, SOME_DIRECTORY, Errors.INVALID_REQUEST,
                    "Remove voter request didn't include a valid voter");
            // The cluster id is checked first, before the voter.
            assertRemoval(client, "another", 1, ReplicaKey.NO_DIRECTORY, Errors.INCONSISTENT_CLUSTER_ID,
                    "The given id \"another\" doesn't match the cluster id \"" + CLUSTER_ID + "\"");
            // Any voter with a directory id, this node or another, meets kraft.version 0, as on Kafka.
            assertRemoval(client, CLUSTER_ID, 1, SOME_DIRECTORY, Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support removing voter because the kraft.version feature is 0");
            assertRemoval(client, null, 7, SOME_DIRECTORY, Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support removing voter because the kraft.version feature is 0");
        }
    }

    @Test
    void aSingleNodeRefusesAnAdditionAsAStaticQuorum() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("cluster.id", CLUSTER_ID));
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            AddRaftVoterRequestView otherCluster = addition("another", 2, ReplicaKey.NO_DIRECTORY);
            assertAddition(client, (short) 1, otherCluster, Errors.INCONSISTENT_CLUSTER_ID,
                    "The given id \"another\" doesn't match the cluster id \"" + CLUSTER_ID + "\"");
            assertAddition(client, (short) 1, addition(null, 2, ReplicaKey.NO_DIRECTORY), Errors.INVALID_REQUEST,
                    "Add voter request didn't include a valid voter");

            // Without a controller listener, the node's quorum listener is its own, the voter's in DescribeQuorum.
            AddRaftVoterRequestView elsewhere = addition(CLUSTER_ID, 2, SOME_DIRECTORY);
            elsewhere.addListener().name("controller").host("localhost").port(9093);
            elsewhere.addListener().name("SSL").host("h").port(1);
            elsewhere.addListener().name("EXTERNAL").host("::1").port(2);
            // Kafka's Endpoints and ListenerName as printed by kafka-raft 4.3.1 for these three listeners.
            assertAddition(client, (short) 1, elsewhere, Errors.INVALID_REQUEST, "Add voter request didn't include"
                    + " the endpoint (Endpoints(endpoints={ListenerName(CONTROLLER)=localhost/<unresolved>:9093,"
                    + " ListenerName(EXTERNAL)=::1/<unresolved>:2, ListenerName(SSL)=h/<unresolved>:1})) for the"
                    + " default listener ListenerName(PLAINTEXT)");
            assertAddition(client, (short) 0, addition(null, 2, SOME_DIRECTORY), Errors.INVALID_REQUEST,
                    "Add voter request didn't include the endpoint (Endpoints(endpoints={})) for the default"
                            + " listener ListenerName(PLAINTEXT)");

            for (short version = 0; version <= 1; version++) {
                AddRaftVoterRequestView onTheQuorumListener = addition(null, 2, SOME_DIRECTORY);
                onTheQuorumListener.addListener().name("plaintext").host("localhost").port(9093);
                assertAddition(client, version, onTheQuorumListener, Errors.UNSUPPORTED_VERSION,
                        "Cluster doesn't support adding voter because the kraft.version feature is 0");
            }
        }
    }

    /** A Kafka configuration's controller listener is the quorum's listener, as on the Kafka node it configured. */
    @Test
    void aSingleNodeConfiguredWithAControllerListenerTakesItForTheQuorums() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("controller.listener.names", "CONTROLLER"));
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            assertTheQuorumListenerIsController(client);
        }
    }

    @Test
    void aClustersBrokerForwardsThemToTheControllerWhoseListenerIsTheQuorums() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(2, Map.of("cluster.id", CLUSTER_ID));
             RawClient client = new RawClient(cluster.node(1).boundPort("PLAINTEXT"))) {
            assertRemoval(client, null, MiniCluster.CONTROLLER_ID, ReplicaKey.NO_DIRECTORY, Errors.INVALID_REQUEST,
                    "Remove voter request didn't include a valid voter");
            assertRemoval(client, null, MiniCluster.CONTROLLER_ID, SOME_DIRECTORY, Errors.UNSUPPORTED_VERSION,
                    "Cluster doesn't support removing voter because the kraft.version feature is 0");

            assertTheQuorumListenerIsController(client);
        }
    }

    /**
     * At kraft.version 1 the quorum knows its voter by its id and its directory id (its log directory's
     * meta.properties), which Kafka's refusals print; the messages are those a Kafka 4.3.1 node printed, the ids
     * apart.
     */
    @Test
    void atKraftVersion1ASingleNodeRefusesEachChangeAsKafkasVoterSetOfOne() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("cluster.id", CLUSTER_ID));
             Admin admin = TestBrokers.admin(broker);
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            TestBrokers.upgradeKraftVersion(admin);
            UUID own = directoryOf(logDir);
            String voters = "[" + key(1, own) + "]";

            assertRemoval(client, "another", 1, own, Errors.INCONSISTENT_CLUSTER_ID,
                    "The given id \"another\" doesn't match the cluster id \"" + CLUSTER_ID + "\"");
            assertRemoval(client, null, 1, ReplicaKey.NO_DIRECTORY, Errors.INVALID_REQUEST,
                    "Remove voter request didn't include a valid voter");
            // Another node, this node under another directory id, and this node itself: the last voter is not removed.
            for (ReplicaKey voter : List.of(new ReplicaKey(2, SOME_DIRECTORY), new ReplicaKey(1, SOME_DIRECTORY),
                    new ReplicaKey(1, own))) {
                assertRemoval(client, CLUSTER_ID, voter.id(), voter.directoryId(), Errors.VOTER_NOT_FOUND,
                        "Cannot remove voter " + key(voter.id(), voter.directoryId()) + " from the set of voters "
                                + voters);
            }

            AddRaftVoterRequestView elsewhere = addition(null, 1, SOME_DIRECTORY);
            elsewhere.addListener().name("CONTROLLER").host("localhost").port(9093);
            assertAddition(client, (short) 1, elsewhere, Errors.INVALID_REQUEST, "Add voter request didn't include"
                    + " the endpoint (Endpoints(endpoints={ListenerName(CONTROLLER)=localhost/<unresolved>:9093})) for"
                    + " the default listener ListenerName(PLAINTEXT)");
            assertAddition(client, (short) 1, onTheQuorumListener(1, SOME_DIRECTORY, 9093), Errors.DUPLICATE_VOTER,
                    "The voter id for " + key(1, SOME_DIRECTORY) + " is already part of the set of voters " + voters
                            + ".");
            // A node that answers ApiVersions with kraft.version 1 among its levels (this one) is no caught-up replica.
            assertAddition(client, (short) 0, onTheQuorumListener(2, SOME_DIRECTORY, broker.boundPort("PLAINTEXT")),
                    Errors.REQUEST_TIMED_OUT, "Aborted add voter operation for " + key(2, SOME_DIRECTORY)
                            + " since it is lagging behind");
        }
    }

    /**
     * A new voter is asked for its ApiVersions on its endpoint for the quorum's listener, as Kafka 4.3.1's leader asks
     * it (v4), and refused for its answer with the words a Kafka 4.3.1 node used for the same endpoints: nothing
     * listening; an error; no kraft.version among its features, or levels without the finalized one (printed
     * without the closing parenthesis, as Kafka prints them); and only then, answering with kraft.version 1, lagging
     * behind.
     */
    @Test
    void atKraftVersion1ANewVoterIsRefusedForWhatItAnswersApiVersions() throws Exception {
        List<Request> asked = new CopyOnWriteArrayList<>();
        try (Broker broker = TestBrokers.start(logDir, Map.of("cluster.id", CLUSTER_ID));
             Admin admin = TestBrokers.admin(broker);
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"));
             ScriptedPeer noKraftVersion = apiVersionsPeer(asked, new ApiVersionsResponseView());
             ScriptedPeer kraftVersion0 = apiVersionsPeer(asked, kraftVersions(0, 0));
             ScriptedPeer failing = apiVersionsPeer(asked, new ApiVersionsResponseView()
                     .errorCode(Errors.UNSUPPORTED_VERSION.code()));
             RefusingPort nobody = new RefusingPort()) {
            TestBrokers.upgradeKraftVersion(admin);
            String lagging = "Aborted add voter operation for " + key(2, SOME_DIRECTORY)
                    + " since the kraft.version range ";

            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, nobody.port()),
                    Errors.REQUEST_TIMED_OUT,
                    "Aborted add voter operation for since API_VERSIONS returned an error BROKER_NOT_AVAILABLE");
            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, failing.port()),
                    Errors.REQUEST_TIMED_OUT,
                    "Aborted add voter operation for since API_VERSIONS returned an error UNSUPPORTED_VERSION");
            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, noKraftVersion.port()),
                    Errors.INVALID_REQUEST, lagging + "(min: 0, max: 0) doesn't support the finalized version 1");
            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, kraftVersion0.port()),
                    Errors.INVALID_REQUEST, lagging + "(min: 0, max: 0 doesn't support the finalized version 1");
            assertThat(asked).hasSize(3).allSatisfy(request -> {
                assertThat(request.api()).isEqualTo(ApiKey.API_VERSIONS);
                assertThat(request.version()).isEqualTo((short) 4);
                assertThat(request.header().clientId()).isEqualTo("raft-client-1");
            });
        }
    }

    /**
     * While the new voter has not answered, every other change is refused as Kafka refuses one while an addition is
     * under way; one that never answers is refused at controller.quorum.request.timeout.ms with the error's own
     * message, as Kafka's leader expires the operation, and the next change is taken again.
     */
    @Test
    void atKraftVersion1AnAdditionWaitingForItsVoterHoldsOffOtherChanges() throws Exception {
        CountDownLatch answerNow = new CountDownLatch(1);
        CountDownLatch asked = new CountDownLatch(1);
        try (Broker broker = TestBrokers.start(logDir, Map.of("cluster.id", CLUSTER_ID,
                     "controller.quorum.request.timeout.ms", "1000"));
             Admin admin = TestBrokers.admin(broker);
             RawClient first = new RawClient(broker.boundPort("PLAINTEXT"));
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"));
             ScriptedPeer slow = new ScriptedPeer("slow-voter", request -> {
                 asked.countDown();
                 answerNow.await();
                 return Optional.of(new ApiVersionsResponseView().struct());
             });
             SilentNode silent = new SilentNode();
             RefusingPort nobody = new RefusingPort()) {
            TestBrokers.upgradeKraftVersion(admin);
            UUID own = directoryOf(logDir);
            String pending = "Request timed out waiting for leader to handle previous voter change request";

            first.send(RawClient.request(ApiKey.ADD_RAFT_VOTER, (short) 1, 6,
                    onTheQuorumListener(2, SOME_DIRECTORY, slow.port()).struct()));
            asked.await();
            assertAddition(client, (short) 1, onTheQuorumListener(3, SOME_DIRECTORY, nobody.port()),
                    Errors.REQUEST_TIMED_OUT, pending);
            assertAddition(client, (short) 1, onTheQuorumListener(1, SOME_DIRECTORY, nobody.port()),
                    Errors.REQUEST_TIMED_OUT, pending);
            assertRemoval(client, null, 1, own, Errors.REQUEST_TIMED_OUT, pending);
            answerNow.countDown();
            AddRaftVoterResponseView answered = new AddRaftVoterResponseView(
                    first.receive(ApiKey.ADD_RAFT_VOTER, (short) 1).body());
            assertThat(answered.errorMessage()).startsWith("Aborted add voter operation for " + key(2, SOME_DIRECTORY)
                    + " since the kraft.version range");

            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, silent.port()),
                    Errors.REQUEST_TIMED_OUT, "The request timed out.");
            assertRemoval(client, null, 1, own, Errors.VOTER_NOT_FOUND,
                    "Cannot remove voter " + key(1, own) + " from the set of voters [" + key(1, own) + "]");
        }
    }

    /** At a time-out of 0 (Kafka's lowest) the addition times out at once, as Kafka's leader expires it. */
    @Test
    void atARequestTimeoutOf0AnAdditionTimesOutAtOnce() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("controller.quorum.request.timeout.ms", "0"));
             Admin admin = TestBrokers.admin(broker);
             RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            TestBrokers.upgradeKraftVersion(admin);
            assertAddition(client, (short) 1, onTheQuorumListener(2, SOME_DIRECTORY, broker.boundPort("PLAINTEXT")),
                    Errors.REQUEST_TIMED_OUT, "The request timed out.");
        }
    }

    /** A node that answers every ApiVersions with {@code answer}, noting each request in {@code asked}. */
    private static ScriptedPeer apiVersionsPeer(List<Request> asked, ApiVersionsResponseView answer) {
        return new ScriptedPeer("new-voter", request -> {
            asked.add(request);
            return Optional.of(answer.struct());
        });
    }

    private static ApiVersionsResponseView kraftVersions(int min, int max) {
        ApiVersionsResponseView answer = new ApiVersionsResponseView();
        answer.addSupportedFeature().name("kraft.version").minVersion((short) min).maxVersion((short) max);
        return answer;
    }

    /**
     * In a cluster the controller's voter set answers, its voter known by the controller's directory id; a broker of
     * the cluster, which follows the controller's image without a directory id, is no caught-up replica to add.
     */
    @Test
    void atKraftVersion1AClustersControllerRefusesThemThroughABroker() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(2, Map.of("cluster.id", CLUSTER_ID));
             Admin admin = TestBrokers.admin(cluster.node(1));
             RawClient client = new RawClient(cluster.node(1).boundPort("PLAINTEXT"))) {
            TestBrokers.upgradeKraftVersion(admin);
            UUID controller = directoryOf(cluster.logDir(MiniCluster.CONTROLLER_ID));
            UUID broker = directoryOf(cluster.logDir(1));
            String voters = "[" + key(MiniCluster.CONTROLLER_ID, controller) + "]";

            assertRemoval(client, null, MiniCluster.CONTROLLER_ID, controller, Errors.VOTER_NOT_FOUND,
                    "Cannot remove voter " + key(MiniCluster.CONTROLLER_ID, controller) + " from the set of voters "
                            + voters);
            AddRaftVoterRequestView theBroker = addition(null, 1, broker);
            theBroker.addListener().name("CONTROLLER").host("localhost").port(cluster.node(1).boundPort("PLAINTEXT"));
            assertAddition(client, (short) 1, theBroker, Errors.REQUEST_TIMED_OUT,
                    "Aborted add voter operation for " + key(1, broker) + " since it is lagging behind");
            AddRaftVoterRequestView theController = addition(null, MiniCluster.CONTROLLER_ID, controller);
            theController.addListener().name("CONTROLLER").host("localhost").port(9093);
            assertAddition(client, (short) 1, theController, Errors.DUPLICATE_VOTER, "The voter id for "
                    + key(MiniCluster.CONTROLLER_ID, controller) + " is already part of the set of voters " + voters
                    + ".");
        }
    }

    private static UUID directoryOf(Path logDir) throws IOException {
        Uuid id = Uuid.fromString(TestBrokers.directoryId(logDir));
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** Kafka's ReplicaKey as its messages print it, the directory id in Kafka's own text for ids. */
    private static String key(int id, UUID directoryId) {
        return "ReplicaKey(id=" + id + ", directoryId=" + new Uuid(directoryId.getMostSignificantBits(),
                directoryId.getLeastSignificantBits()) + ")";
    }

    private static AddRaftVoterRequestView onTheQuorumListener(int voterId, UUID directoryId, int port) {
        AddRaftVoterRequestView addition = addition(null, voterId, directoryId);
        addition.addListener().name("PLAINTEXT").host("localhost").port(port);
        return addition;
    }

    /** A voter named on PLAINTEXT only is refused for the quorum's CONTROLLER listener; one on CONTROLLER passes. */
    private static void assertTheQuorumListenerIsController(RawClient client) throws IOException {
        AddRaftVoterRequestView onThePlaintextListener = addition(null, 2, SOME_DIRECTORY);
        onThePlaintextListener.addListener().name("PLAINTEXT").host("localhost").port(9092);
        assertAddition(client, (short) 1, onThePlaintextListener, Errors.INVALID_REQUEST,
                "Add voter request didn't include the endpoint (Endpoints(endpoints={ListenerName(PLAINTEXT)="
                        + "localhost/<unresolved>:9092})) for the default listener ListenerName(CONTROLLER)");
        AddRaftVoterRequestView onTheControllerListener = addition(null, 2, SOME_DIRECTORY);
        onTheControllerListener.addListener().name("CONTROLLER").host("localhost").port(9093);
        assertAddition(client, (short) 1, onTheControllerListener, Errors.UNSUPPORTED_VERSION,
                "Cluster doesn't support adding voter because the kraft.version feature is 0");
    }

    private static AddRaftVoterRequestView addition(String clusterId, int voterId, UUID directoryId) {
        return new AddRaftVoterRequestView().clusterId(clusterId).timeoutMs(30_000).voterId(voterId)
                .voterDirectoryId(directoryId);
    }

    private static void assertRemoval(RawClient client, String clusterId, int voterId, UUID directoryId,
                                      Errors error, String message) throws IOException {
        client.send(RawClient.request(ApiKey.REMOVE_RAFT_VOTER, (short) 0, 5, new RemoveRaftVoterRequestView()
                .clusterId(clusterId).voterId(voterId).voterDirectoryId(directoryId).struct()));
        RemoveRaftVoterResponseView response = new RemoveRaftVoterResponseView(
                client.receive(ApiKey.REMOVE_RAFT_VOTER, (short) 0).body());
        assertThat(Errors.forCode(response.errorCode())).as("voter %d, directory %s", voterId, directoryId)
                .isEqualTo(error);
        assertThat(response.errorMessage()).isEqualTo(message);
    }

    private static void assertAddition(RawClient client, short version, AddRaftVoterRequestView request,
                                       Errors error, String message) throws IOException {
        client.send(RawClient.request(ApiKey.ADD_RAFT_VOTER, version, 6, request.struct()));
        AddRaftVoterResponseView response = new AddRaftVoterResponseView(
                client.receive(ApiKey.ADD_RAFT_VOTER, version).body());
        assertThat(Errors.forCode(response.errorCode())).as("v%d", version).isEqualTo(error);
        assertThat(response.errorMessage()).isEqualTo(message);
    }
}
