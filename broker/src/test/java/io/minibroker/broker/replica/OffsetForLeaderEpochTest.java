package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.purgatory.time.ManualClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * OffsetForLeaderEpoch on a partition that changed leader once: the epochs' end offsets and the epoch checks, which
 * Fetch makes too. The cluster runs on a manual clock, so the leader changes exactly once: when the test moves the
 * clock past the killed leader's session, the live nodes heartbeating through the steps, not because a loaded machine
 * fenced a live one.
 */
class OffsetForLeaderEpochTest {

    private static final String TOPIC = "epoch-ends";
    private static final long SESSION_MS = 1_500;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS), "replica.fetch.wait.max.ms", "100"), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).all().get();
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void answersWhereEachEpochEndsAndChecksTheCurrentEpoch() throws Exception {
        try (KafkaProducer<String, String> producer = WireFetches.acksAllProducer(bootstrap())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "before-" + i)).get();
            }
            cluster.kill(1);
            Future<RecordMetadata> first = producer.send(new ProducerRecord<>(TOPIC, 0, null, "after-0"));
            new SessionClock(cluster, clock, SESSION_MS).expireSilentSessions(); // "after-0" waits for node 2
            first.get();
            for (int i = 1; i < 3; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "after-" + i)).get();
            }
        }
        // Node 2 leads now (the first live replica of the ISR), at a newer epoch than 0.
        try (NodeChannel leader = channel(2); NodeChannel follower = channel(0)) {
            int epoch = 1; // the leader's epoch: the first above 0 that it knows as its own
            while (epoch < 10 && ask(leader, -1, epoch, -1).getInt32("LeaderEpoch") != epoch) {
                epoch++;
            }
            assertThat(answer(ask(leader, -1, epoch, epoch))).containsExactly(0, epoch, 8L);
            assertThat(answer(ask(leader, -1, 0, epoch))).as("epoch 0 ends where the next began")
                    .containsExactly(0, 0, 5L);
            assertThat(answer(ask(leader, -1, epoch + 3, -1))).as("an unknown newer epoch")
                    .containsExactly(0, -1, -1L);
            assertThat(answer(ask(leader, -1, 0, epoch + 1))).first()
                    .isEqualTo((int) Errors.UNKNOWN_LEADER_EPOCH.code());
            assertThat(answer(ask(leader, -1, 0, epoch - 1))).first()
                    .isEqualTo((int) Errors.FENCED_LEADER_EPOCH.code());
            // Fetch v9+ names the epoch too, checked the same way (Kafka's localLogWithEpochOrThrow).
            assertThat(fetchError(leader, epoch - 1)).as("a fetch naming an older epoch")
                    .isEqualTo(Errors.FENCED_LEADER_EPOCH);
            assertThat(fetchError(leader, epoch + 1)).as("a fetch naming a newer epoch")
                    .isEqualTo(Errors.UNKNOWN_LEADER_EPOCH);
            assertThat(fetchError(leader, epoch)).as("a fetch naming the leader's epoch").isEqualTo(Errors.NONE);
            // Fetch v12+ names the last fetched epoch: a log that diverges from the leader's is told where that epoch
            // ends in the leader's (DivergingEpoch), as Kafka's Partition.readRecords answers it.
            assertThat(divergence(leader, 0, 7, epoch)).as("records of epoch 0 past its end at the leader")
                    .containsExactly(0, 0, 5L, 0);
            assertThat(divergence(leader, epoch + 3, 8, epoch)).as("an epoch newer than any the leader has: its end is "
                    + "unknown, as in Kafka").containsExactly((int) Errors.OFFSET_OUT_OF_RANGE.code(), -1, -1L, 0);
            assertThat(divergence(leader, 0, 5, epoch)).as("in step: records, no divergence")
                    .containsExactly(0, -1, -1L, 3);
            int epochSeen = epoch;
            // Until it takes the new epoch the follower answers UNKNOWN_LEADER_EPOCH; then, not leading, it refuses.
            await(() -> ask(follower, 0, 0, epochSeen).getInt16("ErrorCode") == Errors.NOT_LEADER_OR_FOLLOWER.code(),
                    "the follower to take the new epoch");
            assertThat(answer(ask(follower, -1, 0, epoch))).as("a consumer asking a follower").first()
                    .isEqualTo((int) Errors.NOT_LEADER_OR_FOLLOWER.code());
            assertThat(answer(ask(follower, 0, 0, epoch))).as("a replica asking a follower, as in Kafka")
                    .containsExactly((int) Errors.NOT_LEADER_OR_FOLLOWER.code(), -1, -1L);
        }
    }

    private static List<Object> answer(Struct partition) {
        return List.of((int) partition.getInt16("ErrorCode"), partition.getInt32("LeaderEpoch"),
                partition.getInt64("EndOffset"));
    }

    private static Struct ask(NodeChannel channel, int replicaId, int leaderEpoch, int currentLeaderEpoch) {
        Struct request = ApiKey.OFFSET_FOR_LEADER_EPOCH.request().newMessage().set("ReplicaId", replicaId);
        request.addElement("Topics").set("Topic", TOPIC).addElement("Partitions")
                .set("Partition", 0)
                .set("CurrentLeaderEpoch", currentLeaderEpoch)
                .set("LeaderEpoch", leaderEpoch);
        try {
            return channel.send(ApiKey.OFFSET_FOR_LEADER_EPOCH, request)
                    .getStructs("Topics").get(0).getStructs("Partitions").get(0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A consumer's Fetch v12 (topics by name) of partition 0 from offset 0, naming {@code currentLeaderEpoch}. */
    private static Errors fetchError(NodeChannel channel, int currentLeaderEpoch) throws IOException {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 0)
                .set("MinBytes", 0).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", currentLeaderEpoch).set("FetchOffset", 0L).set("PartitionMaxBytes", 1024);
        return Errors.forCode(channel.send(ApiKey.FETCH, (short) 12, fetch).getStructs("Responses").get(0)
                .getStructs("Partitions").get(0).getInt16("ErrorCode"));
    }

    /**
     * A consumer's Fetch v12 of partition 0 from {@code fetchOffset} naming {@code lastFetchedEpoch}: the error, the
     * DivergingEpoch's epoch and end offset, and how many records came.
     */
    private static List<Object> divergence(NodeChannel channel, int lastFetchedEpoch, long fetchOffset,
                                           int currentLeaderEpoch) throws IOException {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 0)
                .set("MinBytes", 0).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", currentLeaderEpoch).set("FetchOffset", fetchOffset)
                .set("LastFetchedEpoch", lastFetchedEpoch).set("PartitionMaxBytes", 1 << 20);
        Struct partition = channel.send(ApiKey.FETCH, (short) 12, fetch).getStructs("Responses").get(0)
                .getStructs("Partitions").get(0);
        Struct diverging = partition.getStruct("DivergingEpoch");
        return List.of((int) partition.getInt16("ErrorCode"), diverging.getInt32("Epoch"),
                diverging.getInt64("EndOffset"), WireFetches.recordCount(partition));
    }

    private NodeChannel channel(int node) {
        return new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"), "epoch-test", 10_000);
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
