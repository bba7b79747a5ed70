package io.minibroker.broker.fetch;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.fetch.LeaderEpochAnswers.endOffsetFor;
import static io.minibroker.broker.fetch.LeaderEpochAnswers.listOffsets;
import static org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP;
import static org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_TIMESTAMP;
import static org.apache.kafka.common.requests.ListOffsetsRequest.LATEST_TIMESTAMP;
import static org.apache.kafka.common.requests.ListOffsetsRequest.MAX_TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader epoch of a partition without records on a single node. A Kafka 4.3.1 leader assigns its epoch at the log
 * end as it becomes leader (Partition.makeLeader), so a new partition answers with it before any record: measured on
 * a 4.3.1 node (session 26), ListOffsets LATEST, EARLIEST and EARLIEST_LOCAL gave offset 0 with leader epoch 0,
 * MAX_TIMESTAMP no record (offset -1, epoch -1), and OffsetForLeaderEpoch for epoch 0 end offset 0 in epoch 0, for an
 * epoch above it or -1 none (-1, -1). A single node leads from the log's creation and again at each start; the epoch
 * is kept in memory until its first batch, so a partition never written to costs no checkpoint write.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmptyPartitionLeaderEpochTest {

    private static final String TOPIC = "empty";

    @TempDir
    Path logDir;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() throws Exception {
        broker.close();
    }

    @Test
    void aPartitionWithoutRecordsAnswersTheEpochItIsLedInAsKafka() throws Exception {
        assertAnswersOfAnEmptyPartition();
        assertThat(Files.readString(checkpoint())).as("the epoch alone is not written").isEmpty();
    }

    /**
     * A clean restart: the epoch is assigned again as the node leads the log again. (Kafka's single node leads in a
     * new epoch after a restart, 2 after the first: the controller fences the stopped broker and elects it again; a
     * minibroker single node leads in epoch 0 for good.)
     */
    @Test
    void aRestartedNodeAnswersTheEpochOfAnEmptyPartitionAgain() throws Exception {
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());

        assertAnswersOfAnEmptyPartition();
        assertThat(Files.readString(checkpoint())).isEmpty();
    }

    /** The first record makes the epoch one the checkpoint holds, before its produce is answered. */
    @Test
    void theFirstRecordWritesTheEpochWhereItBegan() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.ACKS_CONFIG, "1"),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "first")).get();
        }
        assertThat(Files.readString(checkpoint())).isEqualTo("0\n1\n0 0\n");
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        try (NodeChannel node = node()) {
            assertThat(endOffsetFor(node, TOPIC, 0)).containsExactly(0, 0, 1L);
            assertThat(listOffsets(node, TOPIC, LATEST_TIMESTAMP)).containsExactly(0, -1L, 1L, 0);
        }
    }

    private void assertAnswersOfAnEmptyPartition() {
        try (NodeChannel node = node()) {
            assertThat(listOffsets(node, TOPIC, LATEST_TIMESTAMP)).as("LATEST").containsExactly(0, -1L, 0L, 0);
            assertThat(listOffsets(node, TOPIC, EARLIEST_TIMESTAMP)).as("EARLIEST").containsExactly(0, -1L, 0L, 0);
            assertThat(listOffsets(node, TOPIC, EARLIEST_LOCAL_TIMESTAMP)).as("EARLIEST_LOCAL")
                    .containsExactly(0, -1L, 0L, 0);
            assertThat(listOffsets(node, TOPIC, MAX_TIMESTAMP)).as("MAX_TIMESTAMP: no record")
                    .containsExactly(0, -1L, -1L, -1);
            assertThat(endOffsetFor(node, TOPIC, 0)).as("epoch 0").containsExactly(0, 0, 0L);
            assertThat(endOffsetFor(node, TOPIC, 1)).as("an epoch above it").containsExactly(0, -1, -1L);
            assertThat(endOffsetFor(node, TOPIC, -1)).as("no epoch").containsExactly(0, -1, -1L);
        }
    }

    private Path checkpoint() {
        return logDir.resolve(TOPIC + "-0").resolve("leader-epoch-checkpoint");
    }

    private NodeChannel node() {
        return new NodeChannel("localhost", broker.boundPort("PLAINTEXT"), "epoch-probe", 10_000);
    }

    private String bootstrap() {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }
}
