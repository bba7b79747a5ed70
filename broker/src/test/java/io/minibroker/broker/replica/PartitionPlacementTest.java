package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker keeps logs only for the partitions it replicates, as Kafka's do, and answers a request for any other
 * partition the cluster has, of a topic it replicates or not, NOT_LEADER_OR_FOLLOWER (the client's metadata is
 * stale), not UNKNOWN_TOPIC_OR_PARTITION.
 */
class PartitionPlacementTest {

    private static final String TOPIC = "placed";
    /** A topic with no replica on node 0. */
    private static final String ELSEWHERE = "elsewhere";

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers",
                "localhost:" + cluster.controller().boundPort("PLAINTEXT")))) {
            // Partition i on node i alone.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0), 1, List.of(1), 2, List.of(2))),
                    new NewTopic(ELSEWHERE, Map.of(0, List.of(1))))).all().get();
        }
        for (int node = 0; node < 3; node++) {
            Path own = partitionDir(node, node);
            await(() -> Files.isDirectory(own), "node's own partition log");
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void eachNodeHasTheLogsOfItsReplicasOnly() {
        for (int node = 0; node < 3; node++) {
            for (int partition = 0; partition < 3; partition++) {
                assertThat(Files.exists(partitionDir(node, partition)))
                        .as("node %d, partition %d", node, partition).isEqualTo(node == partition);
            }
        }
    }

    @Test
    void aPartitionOfTheTopicHostedElsewhereIsNotLeaderOrFollowerAndAnUnknownOneIsUnknown() throws Exception {
        assertThat(listOffsetsError(0, TOPIC, 1)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(listOffsetsError(0, TOPIC, 0)).isEqualTo(Errors.NONE);
        assertThat(listOffsetsError(0, TOPIC, 7)).as("no such partition").isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(listOffsetsError(0, "no-such-topic", 0)).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void aTopicWithNoReplicaHereIsNotLeaderOrFollowerAsInKafkasMetadataCache() {
        await(() -> listOffsetsError(0, ELSEWHERE, 0) == Errors.NOT_LEADER_OR_FOLLOWER,
                "node 0 to know the topic from its image");
        assertThat(listOffsetsError(0, ELSEWHERE, 1)).as("no such partition").isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        // Node 1 takes the same image on its own heartbeat, maybe a little later than node 0.
        await(() -> listOffsetsError(1, ELSEWHERE, 0) == Errors.NONE, "its leader, node 1, to answer");
        assertThat(Files.exists(cluster.logDir(0).resolve(ELSEWHERE + "-0"))).isFalse();
    }

    private Path partitionDir(int node, int partition) {
        return cluster.logDir(node).resolve(TOPIC + "-" + partition);
    }

    private Errors listOffsetsError(int node, String topic, int partition) {
        Struct request = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", -1)
                .set("IsolationLevel", (byte) 0);
        request.addElement("Topics").set("Name", topic).addElement("Partitions").set("PartitionIndex", partition)
                .set("Timestamp", -1L);
        try (NodeChannel channel = new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"),
                "placement-test", 10_000)) {
            return Errors.forCode(channel.send(ApiKey.LIST_OFFSETS, request).getStructs("Topics").get(0)
                    .getStructs("Partitions").get(0).getInt16("ErrorCode"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
