package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The high watermark outlives restarts in {@code replication-offset-checkpoint}: a stopped leader leaves its last
 * one there, a restarted follower whose leader is away keeps the checkpointed one (not 0), and a restarted leader
 * serves its committed records at once.
 *
 * <p>The cluster runs on a manual clock, so that no live node's session runs out on a loaded machine: the nodes
 * stop cleanly, which fences them at once, and the test moves the clock to the controller's next round to have it
 * act, and by checkpoint intervals to have the checkpoints written. replica.lag.time.max.ms is longer than the
 * clock moves in all: the ISR changes only by the stops.
 */
class HighWatermarkCheckpointTest {

    private static final String TOPIC = "durable";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final long SESSION_MS = 1_500;
    private static final long CHECKPOINT_MS = 100;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS), "replica.fetch.wait.max.ms", "100",
                "replica.lag.time.max.ms", "60000",
                "replica.high.watermark.checkpoint.interval.ms", String.valueOf(CHECKPOINT_MS)), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = partition().admin()) {
            // Node 0, the controller's, holds no replica and stays up.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2))))).all().get();
        }
        await(() -> partition().isr().equals(List.of(1, 2)), "the ISR to be both replicas");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void restartedReplicasStartFromTheCheckpointedHighWatermark() throws Exception {
        produce(10);
        sessions.awaitAdvancing(CHECKPOINT_MS, () -> checkpoint(2).equals(List.of("0", "1", TOPIC + " 0 10")),
                "the follower to checkpoint the high watermark it learnt, has " + checkpoint(2));

        cluster.stop(2);
        sessions.nextControllerRound();
        await(() -> partition().isr().equals(List.of(1)), "node 2 to leave the ISR");
        produce(5); // committed by the leader alone; node 2 never gets them
        cluster.stop(1);
        assertThat(checkpoint(1)).as("the leader's last high watermark, written at its stop")
                .containsExactly("0", "1", TOPIC + " 0 15");

        FileTime beforeRestart = FileTime.fromMillis(System.currentTimeMillis());
        cluster.restart(2); // not in the ISR: the partition stays leaderless, node 2 has no leader to follow
        sessions.awaitAdvancing(CHECKPOINT_MS, () -> modifiedAfter(checkpointFile(2), beforeRestart),
                "node 2 to checkpoint after its restart");
        assertThat(checkpoint(2)).as("the checkpointed high watermark, not 0").containsExactly("0", "1",
                TOPIC + " 0 10");

        cluster.restart(1);
        await(() -> cluster.controller().membership().isLive(1), "node 1 to be live again");
        sessions.nextControllerRound();
        await(() -> partition().leader() == 1, "node 1, the last in-sync replica, to lead again");
        try (Admin admin = partition().admin()) {
            long latest = admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest())).all().get().get(PARTITION)
                    .offset();
            assertThat(latest).as("ListOffsets LATEST right after the restart").isEqualTo(15);
        }
        assertThat(readAll(15)).hasSize(15);
        await(() -> partition().isr().equals(List.of(1, 2)), "node 2 to catch up and rejoin the ISR");
    }

    private void produce(int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
            }
        }
    }

    /**
     * With fetch.max.wait.ms 0: a fetch parked at the leader would wait on the manual clock, holding the consumer's
     * close for its 30 s timeout once the records are read.
     */
    private List<String> readAll(int atMost) {
        return ReadFromStart.values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0), PARTITION, atMost, Duration.ofSeconds(10));
    }

    private Path checkpointFile(int node) {
        return cluster.logDir(node).resolve("replication-offset-checkpoint");
    }

    private List<String> checkpoint(int node) {
        try {
            return Files.readAllLines(checkpointFile(node));
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean modifiedAfter(Path file, FileTime time) {
        try {
            return Files.getLastModifiedTime(file).compareTo(time) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }

    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }
}
