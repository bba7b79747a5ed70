package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.fetch.LeaderEpochAnswers.endOffsetFor;
import static io.minibroker.broker.fetch.LeaderEpochAnswers.listOffsets;
import static io.minibroker.broker.server.Eventually.await;
import static org.apache.kafka.common.requests.ListOffsetsRequest.EARLIEST_TIMESTAMP;
import static org.apache.kafka.common.requests.ListOffsetsRequest.LATEST_TIMESTAMP;
import static org.apache.kafka.common.requests.ListOffsetsRequest.MAX_TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a new leader answers after a leader change, with a log that has no records and with one that has records of
 * the epoch before, as a Kafka 4.3.1 cluster answered (session 26: topics led by broker 2 with broker 1 in sync, three
 * records in one of them, broker 2 stopped; the new leader, broker 1, at epoch 1): Kafka's new leader assigns its
 * epoch at its log end (Partition.makeLeader), so the empty log answers ListOffsets LATEST and EARLIEST in that
 * epoch and OffsetForLeaderEpoch for it at end offset 0, for the epoch before (which it never saw: no batch carried
 * it) end offset 0 in that epoch; the log with records answers LATEST in the new epoch, EARLIEST and MAX_TIMESTAMP in
 * the epoch of their records, which ends where the new one began. The manual clock keeps the nodes' sessions alive
 * whatever the machine's load; the leader moves by the controller's election, at the next leader epoch.
 */
class NewLeaderEpochAnswersTest {

    private static final String EMPTY = "empty-log";
    private static final String WRITTEN = "written-log";

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "replica.fetch.wait.max.ms", "100"), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = new FirstPartition(cluster, EMPTY).admin()) {
            admin.createTopics(List.of(new NewTopic(EMPTY, Map.of(0, List.of(1, 2))),
                    new NewTopic(WRITTEN, Map.of(0, List.of(1, 2))))).all().get();
        }
        await(() -> new FirstPartition(cluster, EMPTY).isr().size() == 2
                && new FirstPartition(cluster, WRITTEN).isr().size() == 2, "both replicas in sync");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aNewLeaderAnswersItsEpochFromItsLogEndWithAnEmptyLogAndWithRecords() throws Exception {
        try (KafkaProducer<String, String> producer = WireFetches.acksAllProducer(
                "localhost:" + cluster.controller().boundPort("PLAINTEXT"))) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(WRITTEN, 0, 1_700_000_000_000L + i, null, "v" + i)).get();
            }
        }
        try (NodeChannel first = channel(1)) {
            assertThat(listOffsets(first, EMPTY, LATEST_TIMESTAMP)).as("the first leader's empty log")
                    .containsExactly(0, -1L, 0L, 0);
            assertThat(endOffsetFor(first, EMPTY, 0)).containsExactly(0, 0, 0L);
        }
        cluster.moveLeader(EMPTY, 0, 2);
        cluster.moveLeader(WRITTEN, 0, 2);
        int epoch = new FirstPartition(cluster, EMPTY).leaderEpoch();
        int writtenEpoch = new FirstPartition(cluster, WRITTEN).leaderEpoch();
        assertThat(epoch).isPositive();
        try (NodeChannel leader = channel(2)) {
            // Answered once node 2 leads in the new epoch; a new leader's high watermark must also reach its epoch's
            // start before it answers a consumer's LATEST (OFFSET_NOT_AVAILABLE until then, as Kafka's).
            await(() -> listOffsets(leader, EMPTY, LATEST_TIMESTAMP).equals(List.of(0, -1L, 0L, epoch))
                    && listOffsets(leader, WRITTEN, LATEST_TIMESTAMP).equals(List.of(0, -1L, 3L, writtenEpoch)),
                    "node 2 to lead both at the new epoch");

            assertThat(listOffsets(leader, EMPTY, EARLIEST_TIMESTAMP)).containsExactly(0, -1L, 0L, epoch);
            assertThat(listOffsets(leader, EMPTY, MAX_TIMESTAMP)).containsExactly(0, -1L, -1L, -1);
            assertThat(endOffsetFor(leader, EMPTY, epoch)).containsExactly(0, epoch, 0L);
            assertThat(endOffsetFor(leader, EMPTY, 0)).as("the epoch before, unknown here: below all, it ends at 0")
                    .containsExactly(0, 0, 0L);
            assertThat(endOffsetFor(leader, EMPTY, epoch + 1)).containsExactly(0, -1, -1L);

            assertThat(listOffsets(leader, WRITTEN, EARLIEST_TIMESTAMP)).containsExactly(0, -1L, 0L, 0);
            assertThat(listOffsets(leader, WRITTEN, MAX_TIMESTAMP))
                    .containsExactly(0, 1_700_000_000_002L, 2L, 0);
            assertThat(endOffsetFor(leader, WRITTEN, writtenEpoch)).containsExactly(0, writtenEpoch, 3L);
            assertThat(endOffsetFor(leader, WRITTEN, 0)).containsExactly(0, 0, 3L);
            assertThat(endOffsetFor(leader, WRITTEN, writtenEpoch + 1)).containsExactly(0, -1, -1L);
        }
    }

    private NodeChannel channel(int node) {
        return new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"), "epoch-probe", 10_000);
    }
}
