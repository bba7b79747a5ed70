package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteRecordsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ListOffsets and DeleteRecords in a cluster: only the leader answers them, LATEST is the high watermark (not the
 * log end) for read_uncommitted and read_committed alike, and DeleteRecords is answered once the live followers
 * took the log start offset it moved on the leader.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat, so that no live follower is fenced on a loaded machine; the sessions are long (30 s of
 * that clock), so that a killed follower stays in the ISR for the whole test.
 */
class ClusterOffsetsTest {

    private static final String TOPIC = "offsets";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    /** Kafka's ListOffsets replica id that may ask any replica. */
    private static final int DEBUGGING_REPLICA_ID = -2;

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 30_000, Map.of("replica.lag.time.max.ms", "600000"));
        cluster = running.cluster();
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).all().get();
        }
        await(() -> new FirstPartition(cluster, TOPIC).isr().size() == 3, "the ISR to be every replica");
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void onlyTheLeaderAnswersAndItsFollowersTakeTheLogStartOffsetItMoved() throws Exception {
        produce("all", 10);
        try (Admin admin = admin()) {
            assertThat(latest(admin, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(10);

            long lowWatermark = admin.deleteRecords(Map.of(PARTITION, RecordsToDelete.beforeOffset(4)))
                    .lowWatermarks().get(PARTITION).get().lowWatermark();
            assertThat(lowWatermark).isEqualTo(4);
            assertThatThrownBy(() -> admin.deleteRecords(Map.of(PARTITION, RecordsToDelete.beforeOffset(11)))
                    .all().get()).as("past the high watermark").hasCauseInstanceOf(OffsetOutOfRangeException.class);
        }
        for (int follower : List.of(0, 2)) {
            assertThat(latestErrorOn(follower)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(deleteRecordsError(follower)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(earliestOn(follower)).as("the deletion was answered once every live follower had it")
                    .isEqualTo(4);
        }
    }

    @Test
    void latestIsTheHighWatermarkNotTheLogEnd() throws Exception {
        produce("all", 10);
        cluster.kill(2); // still in the ISR: the high watermark waits for it
        produce("1", 5);
        try (Admin admin = admin()) {
            assertThat(latest(admin, IsolationLevel.READ_UNCOMMITTED)).isEqualTo(10);
            assertThat(latest(admin, IsolationLevel.READ_COMMITTED)).isEqualTo(10);
        }
    }

    @Test
    void aDeletionWaitsForTheLiveFollowersAndTimesOutWithoutThem() throws Exception {
        produce("all", 10);
        cluster.kill(2); // live for the controller until its session expires, but fetching no more
        try (Admin admin = admin()) {
            assertThatThrownBy(() -> admin.deleteRecords(Map.of(PARTITION, RecordsToDelete.beforeOffset(3)),
                    new DeleteRecordsOptions().timeoutMs(2000)).all().get())
                    .hasCauseInstanceOf(TimeoutException.class);
        }
        assertThat(earliestOn(1)).as("the leader deleted all the same").isEqualTo(3);
        await(() -> earliestOn(0) == 3, "the live follower to follow");
    }

    private static long latest(Admin admin, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).all()
                .get().get(PARTITION).offset();
    }

    /** ListOffsets EARLIEST sent to one node, as the debugging replica id may ask a follower. */
    private long earliestOn(int node) {
        Struct answer = listOffsets(node, DEBUGGING_REPLICA_ID, -2);
        return answer == null ? -1 : answer.getInt64("Offset");
    }

    /** ListOffsets LATEST sent to one node as a consumer sends it. */
    private Errors latestErrorOn(int node) {
        return Errors.forCode(listOffsets(node, -1, -1).getInt16("ErrorCode"));
    }

    private Struct listOffsets(int node, int replicaId, long timestamp) {
        Struct request = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", replicaId)
                .set("IsolationLevel", (byte) 0);
        request.addElement("Topics").set("Name", TOPIC).addElement("Partitions").set("PartitionIndex", 0)
                .set("Timestamp", timestamp);
        try (NodeChannel channel = channelTo(node)) {
            return channel.send(ApiKey.LIST_OFFSETS, request).getStructs("Topics").get(0)
                    .getStructs("Partitions").get(0);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private Errors deleteRecordsError(int node) throws Exception {
        Struct request = ApiKey.DELETE_RECORDS.request().newMessage().set("TimeoutMs", 5000);
        request.addElement("Topics").set("Name", TOPIC).addElement("Partitions").set("PartitionIndex", 0)
                .set("Offset", 5L);
        try (NodeChannel channel = channelTo(node)) {
            return Errors.forCode(channel.send(ApiKey.DELETE_RECORDS, request).getStructs("Topics").get(0)
                    .getStructs("Partitions").get(0).getInt16("ErrorCode"));
        }
    }

    private NodeChannel channelTo(int node) {
        return new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"), "offsets-test", 10_000);
    }

    private void produce(String acks, int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, acks,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
            }
        }
    }

    private Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", bootstrap()));
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
