package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RefusingPort;
import io.minibroker.broker.tools.KafkaToolProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.tools.FeatureCommand;
import org.apache.kafka.tools.MetadataQuorumCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-metadata-quorum.sh remove-controller and add-controller (kafka-tools 4.3.1, in a child JVM as the script runs
 * it) through a broker's listener, against one node and a cluster (whose broker forwards both to the controller).
 * remove-controller printed, against a Kafka 4.3.1 single node formatted with {@code controller.quorum.voters}
 * (node.id 1, kraft.version 0; 2026-11-29): exit 1, nothing on standard output, and on standard error the refusal
 * below: a voter named with the zero directory id (which DescribeQuorum shows for it) is no valid voter, and one
 * named with its meta.properties' directory id meets kraft.version 0. add-controller (its --command-config a
 * controller's properties: its id, controller listener and metadata directory's meta.properties) was not run against
 * that node; its refusal here is what kafka-raft 4.3.1's AddVoterHandler answers at kraft.version 0.
 *
 * <p>After {@code kafka-features upgrade --feature kraft.version=1}, as on that node upgraded so (2026-11-29, sessions
 * 22 and 23; its own ids in place of these): {@code describe --replication} shows the voter's directory id, and
 * {@code describe --status} names it among the voters; remove-controller answers VoterNotFoundException for any voter
 * with a directory id (the node itself too, the last voter) and still "didn't include a valid voter" for the zero
 * id; add-controller answers DuplicateVoterException for the voter's id and, for another id, what that node answered
 * once it had asked the new controller for its ApiVersions on the quorum's listener: "... since API_VERSIONS returned
 * an error BROKER_NOT_AVAILABLE" where nothing listened, and TimeoutException "... since it is lagging behind" from a
 * node that answered (a Kafka broker's listener there, a minibroker's here) but had never fetched;
 * {@code kafka-features downgrade} of kraft.version is refused with Kafka's words.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MetadataQuorumControllersCommandTest {

    private static final String ZERO_DIRECTORY = "AAAAAAAAAAAAAAAAAAAAAA";
    private static final String NO_VALID_VOTER =
            "org.apache.kafka.common.errors.InvalidRequestException: Remove voter request didn't include a valid voter";
    private static final String REMOVAL_UNSUPPORTED = "org.apache.kafka.common.errors.UnsupportedVersionException:"
            + " Cluster doesn't support removing voter because the kraft.version feature is 0";
    private static final String VOTER_NOT_FOUND = "org.apache.kafka.common.errors.VoterNotFoundException: ";
    /** The directory id the controllers' properties below have in their meta.properties. */
    private static final String SOME_DIRECTORY = "5c3cAsQr9k-gxaawpdHgsQ";
    /** What Kafka 4.3.1 printed for a new controller whose endpoint nothing listened on, "for since" its words. */
    private static final String NOT_REACHED = "org.apache.kafka.common.errors.TimeoutException: Aborted add voter"
            + " operation for since API_VERSIONS returned an error BROKER_NOT_AVAILABLE";
    private static final String ADDITION_UNSUPPORTED = "org.apache.kafka.common.errors.UnsupportedVersionException:"
            + " Cluster doesn't support adding voter because the kraft.version feature is 0";

    @TempDir
    Path dir;

    @Test
    void removeControllerIsRefusedAsByAKafka431StaticQuorum() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("node-1"), Map.of())) {
            String bootstrap = broker.bootstrapServers();
            assertRefused(removeController(bootstrap, 2, ZERO_DIRECTORY), NO_VALID_VOTER);
            assertRefused(removeController(bootstrap, 1, ZERO_DIRECTORY), NO_VALID_VOTER);
            assertRefused(removeController(bootstrap, 1, directoryId(broker.logDir())), REMOVAL_UNSUPPORTED);
        }
    }

    /**
     * A node started with a Kafka configuration's controller listener takes it for its quorum's, as that Kafka node
     * does; one without takes its own listener, the voter's endpoint in its DescribeQuorum.
     */
    @Test
    void addControllerIsRefusedAsByAKafka431StaticQuorum() throws Exception {
        Path controller = controllerConfig(2, 36501);
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("node-1"),
                Map.of("controller.listener.names", "CONTROLLER"))) {
            assertRefused(addController(broker.bootstrapServers(), controller), ADDITION_UNSUPPORTED);
        }
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("node-1b"), Map.of())) {
            assertRefused(addController(broker.bootstrapServers(), controller),
                    "org.apache.kafka.common.errors.InvalidRequestException: Add voter request didn't include the"
                            + " endpoint (Endpoints(endpoints={ListenerName(CONTROLLER)=localhost/<unresolved>:36501}))"
                            + " for the default listener ListenerName(PLAINTEXT)");
        }
    }

    @Test
    void atKraftVersion1ASingleNodeAnswersAsAnUpgradedKafka431Node() throws Exception {
        Path logDir = dir.resolve("node-1");
        try (EmbeddedBroker broker = EmbeddedBroker.start(logDir, Map.of("controller.listener.names", "CONTROLLER"));
             RefusingPort nobody = new RefusingPort()) {
            String bootstrap = broker.bootstrapServers();
            String own = directoryId(logDir);
            assertThat(replication(bootstrap)).containsExactly(List.of("1", ZERO_DIRECTORY, "Leader"));

            assertThat(KafkaTool.run(FeatureCommand.class, "--bootstrap-server", bootstrap, "upgrade", "--feature",
                    "kraft.version=1")).isEqualTo("kraft.version was upgraded to 1.\n");
            assertThat(replication(bootstrap)).containsExactly(List.of("1", own, "Leader"));
            assertThat(KafkaTool.run(MetadataQuorumCommand.class, "--bootstrap-server", bootstrap, "describe",
                    "--status").lines().filter(line -> line.startsWith("CurrentVoters:"))).containsExactly(
                    "CurrentVoters:          [{\"id\": 1, \"directoryId\": \"" + own + "\", \"endpoints\":"
                            + " [\"PLAINTEXT://localhost:" + broker.bootstrapServers().replaceAll(".*:", "")
                            + "\"]}]");

            String voters = " from the set of voters [ReplicaKey(id=1, directoryId=" + own + ")]";
            assertRefused(removeController(bootstrap, 2, SOME_DIRECTORY), VOTER_NOT_FOUND
                    + "Cannot remove voter ReplicaKey(id=2, directoryId=" + SOME_DIRECTORY + ")" + voters);
            assertRefused(removeController(bootstrap, 1, own), VOTER_NOT_FOUND
                    + "Cannot remove voter ReplicaKey(id=1, directoryId=" + own + ")" + voters);
            assertRefused(removeController(bootstrap, 1, ZERO_DIRECTORY), NO_VALID_VOTER);

            assertRefused(addController(bootstrap, controllerConfig(1, 36503)), "org.apache.kafka.common.errors"
                    + ".DuplicateVoterException: The voter id for ReplicaKey(id=1, directoryId=" + SOME_DIRECTORY
                    + ") is already part of the set of voters [ReplicaKey(id=1, directoryId=" + own + ")].");
            assertRefused(addController(bootstrap, controllerConfig(2, nobody.port())), NOT_REACHED);
            assertRefused(addController(bootstrap, controllerConfig(2, broker.broker().boundPort("PLAINTEXT"))),
                    "org.apache.kafka.common.errors.TimeoutException: Aborted add voter operation for ReplicaKey(id=2,"
                            + " directoryId=" + SOME_DIRECTORY + ") since it is lagging behind");

            assertThat(KafkaTool.runExiting(1, FeatureCommand.class, "--bootstrap-server", bootstrap, "downgrade",
                    "--feature", "kraft.version=0")).isEqualTo("Could not downgrade kraft.version to 0. The update"
                    + " failed for all features since the following feature had an error: Invalid update version 0"
                    + " for feature kraft.version. Can't downgrade the version of this feature.\n");
        }
    }

    /**
     * A cluster's broker has the controller answer: at kraft.version 0 as the static quorum; at kraft.version 1 the
     * controller is the voter known by its own directory id, and its brokers observe it by theirs.
     */
    @Test
    void aClustersBrokerHasTheControllerRefuseThemAtBothLevels() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(2, Map.of());
             RefusingPort nobody = new RefusingPort()) {
            String bootstrap = "localhost:" + cluster.node(1).boundPort("PLAINTEXT");
            int controllerId = MiniCluster.CONTROLLER_ID;
            String controller = directoryId(cluster.logDir(controllerId));
            assertRefused(removeController(bootstrap, controllerId, ZERO_DIRECTORY), NO_VALID_VOTER);
            assertRefused(removeController(bootstrap, controllerId, controller), REMOVAL_UNSUPPORTED);
            assertRefused(addController(bootstrap, controllerConfig(2, 36502)), ADDITION_UNSUPPORTED);

            assertThat(KafkaTool.run(FeatureCommand.class, "--bootstrap-server", bootstrap, "upgrade", "--feature",
                    "kraft.version=1")).isEqualTo("kraft.version was upgraded to 1.\n");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                Eventually.await(() -> admin.describeMetadataQuorum().quorumInfo().toCompletionStage()
                        .toCompletableFuture().join().observers().size() == 1, "broker 1 observes the controller");
            }
            assertThat(replication(bootstrap)).containsExactly(List.of(String.valueOf(controllerId), controller,
                    "Leader"), List.of("1", directoryId(cluster.logDir(1)), "Observer"));
            assertRefused(removeController(bootstrap, controllerId, controller), VOTER_NOT_FOUND
                    + "Cannot remove voter ReplicaKey(id=" + controllerId + ", directoryId=" + controller
                    + ") from the set of voters [ReplicaKey(id=" + controllerId + ", directoryId=" + controller + ")]");
            assertRefused(addController(bootstrap, controllerConfig(2, nobody.port())), NOT_REACHED);
            assertRefused(addController(bootstrap, controllerConfig(2, cluster.node(1).boundPort("PLAINTEXT"))),
                    "org.apache.kafka.common.errors.TimeoutException: Aborted add voter operation for ReplicaKey(id=2,"
                            + " directoryId=" + SOME_DIRECTORY + ") since it is lagging behind");
        }
    }

    /** describe --replication's rows, the header left out: each replica's NodeId, DirectoryId and Status. */
    private static List<List<String>> replication(String bootstrap) throws Exception {
        return KafkaTool.run(MetadataQuorumCommand.class, "--bootstrap-server", bootstrap, "describe",
                "--replication").lines().filter(line -> line.matches("\\d+ *\t.*")).map(line -> line.split("\t"))
                .map(columns -> List.of(columns[0].trim(), columns[1].trim(), columns[6].trim())).toList();
    }

    private static KafkaToolProcess.Output removeController(String bootstrap, int id, String directoryId)
            throws Exception {
        return KafkaTool.runForOutput(1, MetadataQuorumCommand.class, "--bootstrap-server", bootstrap,
                "remove-controller", "--controller-id", String.valueOf(id), "--controller-directory-id", directoryId);
    }

    private static KafkaToolProcess.Output addController(String bootstrap, Path controllerConfig) throws Exception {
        return KafkaTool.runForOutput(1, MetadataQuorumCommand.class, "--bootstrap-server", bootstrap,
                "--command-config", controllerConfig.toString(), "add-controller");
    }

    /** Nothing on standard output; the refusal first on standard error, then its stack trace. */
    private static void assertRefused(KafkaToolProcess.Output output, String refusal) {
        assertThat(output.stdout()).isEmpty();
        assertThat(output.stderr().lines().findFirst()).as(output.stderr()).hasValue(refusal);
    }

    /** A directory's directory.id, from its meta.properties. */
    private static String directoryId(Path logDir) throws Exception {
        Properties meta = new Properties();
        try (Reader reader = Files.newBufferedReader(logDir.resolve("meta.properties"))) {
            meta.load(reader);
        }
        return meta.getProperty("directory.id");
    }

    /**
     * A controller's properties as add-controller reads them, and its formatted metadata directory: the
     * meta.properties kafka-storage format writes, with a directory id of its own.
     */
    private Path controllerConfig(int nodeId, int port) throws Exception {
        Path metadataDir = Files.createDirectories(dir.resolve("controller-" + nodeId + "-" + port));
        Files.writeString(metadataDir.resolve("meta.properties"), "version=1\ncluster.id=controller-test\nnode.id="
                + nodeId + "\ndirectory.id=" + SOME_DIRECTORY + "\n");
        Path config = dir.resolve("controller-" + nodeId + "-" + port + ".properties");
        Files.writeString(config, "process.roles=controller\nnode.id=" + nodeId
                + "\ncontroller.listener.names=CONTROLLER\nlisteners=CONTROLLER://localhost:" + port
                + "\nlog.dirs=" + metadataDir + "\n");
        return config;
    }
}
