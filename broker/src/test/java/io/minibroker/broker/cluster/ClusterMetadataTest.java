package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every broker of a three-node cluster answers Metadata from the controller's image, as kafka-clients sees it. The
 * cluster runs on a manual clock, so a session runs out only when the test moves the clock past it: a loaded machine
 * does not fence a live node and change the brokers the answers name.
 */
class ClusterMetadataTest {

    private static final long SESSION_MS = 1_500;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS)), clock);
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> brokerIdsSeenBy(id).equals(Set.of(0, 1, 2)), "node " + id + " sees three brokers");
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aTopicCreatedThroughAnyBrokerIsDescribedAlikeByEveryBroker() throws Exception {
        try (Admin admin = admin(2)) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get();
        }

        // Admin sends CreateTopics to the controller's node; the others learn of the topic at their next fetch.
        String controllersAnswer = metadataOrNone(0);
        assertThat(controllersAnswer).contains("orders");
        for (int node = 1; node < 3; node++) {
            int id = node;
            await(() -> controllersAnswer.equals(metadataOrNone(id)),
                    "node " + id + " answers Metadata as the controller's node does");
        }
        try (Admin admin = admin(1)) {
            List<TopicPartitionInfo> partitions = describe(admin, "orders");
            assertThat(partitions).hasSize(3);
            assertThat(partitions).extracting(p -> p.leader().id()).as("leaders spread round-robin")
                    .containsExactlyInAnyOrder(0, 1, 2);
            for (TopicPartitionInfo partition : partitions) {
                assertThat(partition.replicas()).extracting(Node::id).containsExactlyInAnyOrder(0, 1, 2);
                assertThat(partition.isr()).isEqualTo(partition.replicas());
                assertThat(partition.leader()).isEqualTo(partition.replicas().get(0));
            }
            assertThat(admin.describeCluster().controller().get().id()).isIn(0, 1, 2);
            assertThat(admin.describeCluster().nodes().get()).extracting(Node::id).containsExactlyInAnyOrder(0, 1, 2);
        }
    }

    /**
     * As Kafka's KRaft brokers (KafkaApis: getRandomAliveBrokerId for Metadata and DescribeCluster): the ControllerId
     * told to clients is a live broker picked at random per answer, not the controller, which clients cannot reach.
     */
    @Test
    void theControllerIdClientsAreToldIsALiveBrokerAtRandom() throws Exception {
        Set<Integer> inMetadata = new HashSet<>();
        await(() -> {
            try {
                inMetadata.add(metadataFrom(1).controllerId());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return inMetadata.equals(Set.of(0, 1, 2));
        }, "Metadata names each live broker as the controller in turn, and only them");
        Set<Integer> inDescribeCluster = new HashSet<>();
        try (Admin admin = admin(2)) {
            await(() -> {
                try {
                    inDescribeCluster.add(admin.describeCluster().controller().get().id());
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e);
                }
                return inDescribeCluster.equals(Set.of(0, 1, 2));
            }, "DescribeCluster names each live broker as the controller in turn, and only them");
        }
    }

    @Test
    void aCreateTopicsSentToABrokerIsForwardedAndItsImageRefreshedBeforeTheAnswer() throws Exception {
        try (RawClient client = new RawClient(cluster.node(1).boundPort("PLAINTEXT"))) {
            short version = ApiKey.CREATE_TOPICS.highestStableVersion();
            Struct request = ApiKey.CREATE_TOPICS.request().newMessage().set("timeoutMs", 5_000);
            request.addElement("Topics").set("Name", "direct").set("NumPartitions", 2)
                    .set("ReplicationFactor", (short) 2);
            client.send(RawClient.request(ApiKey.CREATE_TOPICS, version, 1, request));
            Struct topic = client.receive(ApiKey.CREATE_TOPICS, version).body().getStructs("Topics").get(0);

            assertThat(topic.getInt16("ErrorCode")).isZero();
            assertThat(topic.getInt32("NumPartitions")).isEqualTo(2);
            assertThat(topic.getInt16("ReplicationFactor")).isEqualTo((short) 2);
        }
        MetadataResponseView.MetadataResponseTopic direct = metadataFrom(1).topics().get(0);
        assertThat(direct.name()).isEqualTo("direct");
        assertThat(direct.partitions()).hasSize(2).allSatisfy(p -> assertThat(p.replicaNodes()).hasSize(2));
    }

    @Test
    void theControllersTopicsOutliveItsRestartAndBrokersRegisterAgain() throws Exception {
        try (Admin admin = admin(1)) {
            admin.createTopics(List.of(new NewTopic("kept", 2, (short) 2))).all().get();
        }
        await(() -> metadataOrNone(2).contains("kept"), "node 2 learns of the topic");
        List<String> topicsBefore = topicsSeenBy(2);

        // A crash: a clean stop would move node 0's leaders to others first (a controlled shutdown).
        cluster.kill(MiniCluster.CONTROLLER_ID);
        cluster.restart(MiniCluster.CONTROLLER_ID);

        // The restarted node listens on a new client port: node 2 knows it only from the new controller's image.
        int newPort = cluster.node(MiniCluster.CONTROLLER_ID).boundPort("PLAINTEXT");
        await(() -> portsSeenBy(2).equals(Set.of(newPort, cluster.node(1).boundPort("PLAINTEXT"),
                cluster.node(2).boundPort("PLAINTEXT"))), "node 2 sees all three brokers registered again");
        assertThat(topicsSeenBy(2)).isEqualTo(topicsBefore);
    }

    @Test
    void theReplicationFactorCannotExceedTheLiveBrokers() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("wide", 1, (short) 4))).all().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InvalidReplicationFactorException.class);
        }
    }

    @Test
    void manualAssignmentsPlaceEachPartitionWhereItsIndexSaysWhateverTheirOrder() throws Exception {
        Map<Integer, List<Integer>> assignments = new LinkedHashMap<>();
        assignments.put(2, List.of(2, 0, 1));
        assignments.put(0, List.of(0, 1, 2));
        assignments.put(1, List.of(1, 2, 0));
        try (Admin admin = admin(0)) {
            admin.createTopics(List.of(new NewTopic("placed", assignments))).all().get();

            TopicDescription placed = admin.describeTopics(List.of("placed")).allTopicNames().get().get("placed");
            for (TopicPartitionInfo partition : placed.partitions()) {
                assertThat(partition.replicas()).extracting(Node::id).as("partition %d", partition.partition())
                        .containsExactlyElementsOf(assignments.get(partition.partition()));
            }
        }
    }

    @Test
    void manualAssignmentsMustNamePartitionsZeroOneTwoAndSoOn() throws Exception {
        try (Admin admin = admin(0)) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("gapped", Map.of(
                    0, List.of(0, 1), 2, List.of(1, 0))))).all().get())
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(InvalidReplicaAssignmentException.class)
                    .hasMessageContaining("partitions should be a consecutive 0-based integer sequence");
        }
    }

    @Test
    void aKilledBrokersReplicasShowOfflineOnTheOthers() throws Exception {
        try (Admin admin = admin(0)) {
            admin.createTopics(List.of(new NewTopic("payments", 1, (short) 3))).all().get();
        }

        cluster.kill(1);
        new SessionClock(cluster, clock, SESSION_MS).expireSilentSessions();

        await(() -> brokerIdsSeenBy(2).equals(Set.of(0, 2)), "node 2 sees node 1 gone");
        MetadataResponseView.MetadataResponsePartition partition =
                metadataFrom(2).topics().get(0).partitions().get(0);
        assertThat(partition.replicaNodes()).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(partition.offlineReplicas()).containsExactly(1);
    }

    /** Node {@code node}'s own answer to a Metadata request for every topic. */
    private MetadataResponseView metadataFrom(int node) throws IOException {
        try (RawClient client = new RawClient(cluster.node(node).boundPort("PLAINTEXT"))) {
            short version = ApiKey.METADATA.highestStableVersion();
            client.send(RawClient.request(ApiKey.METADATA, version, 1,
                    ApiKey.METADATA.request().newMessage().set("Topics", null)));
            return new MetadataResponseView(client.receive(ApiKey.METADATA, version).body());
        }
    }

    private Admin admin(int node) {
        // Bootstrapping on one node only: what this node answers is what the client sees.
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }

    private List<String> topicsSeenBy(int node) throws IOException {
        return metadataFrom(node).topics().stream().map(topic -> topic.struct().toString()).toList();
    }

    private Set<Integer> portsSeenBy(int node) {
        try {
            return metadataFrom(node).brokers().stream().map(MetadataResponseView.MetadataResponseBroker::port)
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            return Set.of();
        }
    }

    private Set<Integer> brokerIdsSeenBy(int node) {
        try {
            return metadataFrom(node).brokers().stream().map(MetadataResponseView.MetadataResponseBroker::nodeId)
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            return Set.of();
        }
    }

    /** A node's Metadata answer but its ControllerId, a live broker picked at random for each answer. */
    private String metadataOrNone(int node) {
        try {
            return metadataFrom(node).controllerId(-1).struct().toString();
        } catch (IOException e) {
            return "none";
        }
    }

    private static List<TopicPartitionInfo> describe(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions();
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }
}
