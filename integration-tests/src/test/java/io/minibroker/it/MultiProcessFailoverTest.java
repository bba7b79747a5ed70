package io.minibroker.it;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.minibroker.it.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5's failover, with each broker its own process and the dead one killed by SIGKILL: a steady stream from an
 * idempotent acks=all producer goes on when a leader or a follower dies, and a consumer then finds every
 * acknowledged record exactly once, in order, without gaps; the killed node, restarted on its data, rejoins. The
 * in-process counterparts ({@code FailoverTest}, {@code LeaderEpochFailoverTest}) cannot show what only a real
 * crash leaves behind: a log written up to wherever the process stopped, and connections reset by the kernel.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MultiProcessFailoverTest {

    private static final String TOPIC = "numbered";
    private static final int PARTITIONS = 3;
    private static final long ACKS_BETWEEN_STEPS = 200;
    private static final Map<String, String> OVERRIDES = Map.of(
            // Shorter than the files' timings, so that a failover takes seconds, not tens of them; not so short
            // that a JVM starved of CPU on a busy machine misses its session.
            "broker.heartbeat.interval.ms", "300",
            "broker.session.timeout.ms", "3000",
            "replica.lag.time.max.ms", "4000",
            // Followers fetch in rounds of replica.fetch.wait.max.ms (Kafka's 500 ms) rather than at each append,
            // so that a leader killed mid-stream often holds records no follower has yet: a divergent tail,
            // which the restarted node must cut before it follows the new leader (else its log differs).
            "replica.fetch.min.bytes", "10000000",
            // A broker default, as topic configs are refused in a cluster so far (INVALID_CONFIG).
            "min.insync.replicas", "2");

    @TempDir
    Path root;

    private ClusterProcesses cluster;
    private Admin admin;

    @BeforeEach
    void start() throws IOException, InterruptedException {
        cluster = ClusterProcesses.start(root, OVERRIDES);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
        await(() -> liveNodes() == ClusterProcesses.SIZE, "three live nodes");
    }

    @AfterEach
    void stop(TestInfo test) throws IOException {
        try {
            if (admin != null) {
                admin.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (cluster != null) {
                cluster.saveOutputs(Path.of("target", "multi-process-failover", test.getTestMethod().orElseThrow()
                        .getName()));
            }
        }
    }

    @Test
    void theStreamGoesOnWhenALeaderIsKilledAndTheRestartedNodeRejoinsAndAgrees() throws Exception {
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
        await(() -> everyIsrIs(List.of(0, 1, 2)), "every replica in sync");

        NumberedProduceStream stream = NumberedProduceStream.start(cluster.bootstrapServers(), TOPIC, PARTITIONS);
        try {
            awaitAcknowledgementsOnEveryPartition(stream);
            // A partition led by a node other than the controller's: the cluster has one controller and no
            // controller failover yet, so killing node 0 would leave nobody to elect a new leader.
            int[] leaders = IntStream.range(0, PARTITIONS).map(this::leaderOf).toArray();
            int partition = IntStream.range(0, PARTITIONS)
                    .filter(p -> leaders[p] != ClusterProcesses.CONTROLLER_ID).findFirst().orElseThrow();
            int killed = leaders[partition];
            cluster.kill(killed);

            await(() -> leaderOf(partition) >= 0 && leaderOf(partition) != killed,
                    "a new leader of partition " + partition + " once node " + killed + "'s session expired");
            long atElection = stream.acknowledged(partition);
            await(() -> stream.acknowledged(partition) >= atElection + ACKS_BETWEEN_STEPS,
                    "acknowledgements from partition " + partition + "'s new leader");
            assertThat(stream.failures()).as("no send failed through the failover").isEmpty();

            cluster.restart(killed);
            await(() -> everyIsrIs(List.of(0, 1, 2)),
                    () -> "node " + killed + " to truncate, catch up and rejoin every ISR, have " + isrs());
            awaitAcknowledgementsOnEveryPartition(stream);
        } finally {
            stream.close();
        }

        assertThat(stream.failures()).as("no send failed").isEmpty();
        assertEveryAcknowledgedRecordIsThereOnceInOrderWithoutGaps(stream);
        await(() -> everyIsrIs(List.of(0, 1, 2)), "every replica in sync after the last write");
        cluster.close();
        for (int p = 0; p < PARTITIONS; p++) {
            assertSameSegmentsAsNode0(1, p);
            assertSameSegmentsAsNode0(2, p);
        }
    }

    @Test
    void theStreamGoesOnWithTwoInSyncReplicasWhenAFollowerIsKilled() throws Exception {
        // Node 2 follows every partition and leads none, so that its death is a follower's only.
        admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(
                0, List.of(0, 1, 2), 1, List.of(1, 0, 2), 2, List.of(0, 1, 2))))).all().get();
        await(() -> everyIsrIs(List.of(0, 1, 2)), "every replica in sync");

        NumberedProduceStream stream = NumberedProduceStream.start(cluster.bootstrapServers(), TOPIC, PARTITIONS);
        try {
            awaitAcknowledgementsOnEveryPartition(stream);
            cluster.kill(2);

            await(() -> everyIsrIs(List.of(0, 1)), () -> "node 2 out of every ISR, have " + isrs());
            awaitAcknowledgementsOnEveryPartition(stream);
            assertThat(IntStream.range(0, PARTITIONS).map(this::leaderOf)).as("the leaders stay")
                    .containsExactly(0, 1, 0);
        } finally {
            stream.close();
        }

        assertThat(stream.failures()).as("no send failed").isEmpty();
        assertEveryAcknowledgedRecordIsThereOnceInOrderWithoutGaps(stream);
    }

    /** Waits until every partition has had {@value #ACKS_BETWEEN_STEPS} more acknowledgements than now. */
    private void awaitAcknowledgementsOnEveryPartition(NumberedProduceStream stream) {
        long[] now = IntStream.range(0, PARTITIONS).mapToLong(stream::acknowledged).toArray();
        await(() -> IntStream.range(0, PARTITIONS)
                        .allMatch(p -> stream.acknowledged(p) >= now[p] + ACKS_BETWEEN_STEPS),
                ACKS_BETWEEN_STEPS + " more acknowledgements on every partition");
    }

    /**
     * Reads every partition from the beginning: partition p holds "0", "1", ... up to the last record sent to it,
     * each once and in order (an idempotent producer whose sends all succeeded), and each acknowledged record is
     * at the offset its acknowledgement gave.
     */
    private void assertEveryAcknowledgedRecordIsThereOnceInOrderWithoutGaps(NumberedProduceStream stream) {
        long[] sent = stream.sent();
        assertThat(stream.acks()).as("every record sent acknowledged").hasSize((int) LongStream.of(sent).sum());
        Map<Integer, List<ConsumerRecord<String, String>>> read = readEveryPartition();
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> expected = LongStream.range(0, sent[p]).mapToObj(Long::toString).toList();
            assertThat(read.get(p)).as("partition %d: every record once, in order, without gaps", p)
                    .extracting(ConsumerRecord::value).containsExactlyElementsOf(expected);
        }
        for (NumberedProduceStream.Ack ack : stream.acks()) {
            ConsumerRecord<String, String> record = read.get(ack.partition()).get((int) ack.offset());
            assertThat(record.offset()).isEqualTo(ack.offset());
            assertThat(record.value()).as("the record at the acknowledged offset %d of partition %d", ack.offset(),
                    ack.partition()).isEqualTo(ack.value());
        }
    }

    /** Every record of every partition up to its high watermark, by partition. */
    private Map<Integer, List<ConsumerRecord<String, String>>> readEveryPartition() {
        Map<Integer, List<ConsumerRecord<String, String>>> read = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> new TopicPartition(TOPIC, p)).toList();
            partitions.forEach(tp -> read.put(tp.partition(), new ArrayList<>()));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            await(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> read.get(record.partition()).add(record));
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
            }, "every partition read to its end " + ends);
        }
        return read;
    }

    /**
     * Node {@code id}'s segment files of the partition hold byte for byte what node 0's do: a follower appends the
     * leader's batches as they are, so replicas that agree have the same files. Read once the processes stopped.
     */
    private void assertSameSegmentsAsNode0(int id, int partition) throws IOException {
        Path expected = cluster.logDir(0).resolve(TOPIC + "-" + partition);
        Path actual = cluster.logDir(id).resolve(TOPIC + "-" + partition);
        assertThat(segmentNames(actual)).as("partition %d: node %d's segments", partition, id)
                .isEqualTo(segmentNames(expected)).isNotEmpty();
        for (String segment : segmentNames(expected)) {
            assertThat(Files.mismatch(expected.resolve(segment), actual.resolve(segment)))
                    .as("partition %d: the first byte where node %d's %s differs from node 0's", partition, id, segment)
                    .isEqualTo(-1L);
        }
    }

    private static List<String> segmentNames(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".log")).sorted()
                    .toList();
        }
    }

    private boolean everyIsrIs(List<Integer> nodes) {
        Map<Integer, List<Integer>> isrs = isrs();
        return isrs.size() == PARTITIONS && isrs.values().stream().allMatch(nodes::equals);
    }

    /** Each partition's ISR, ids ascending, as the cluster's metadata has it; empty when it cannot be had. */
    private Map<Integer, List<Integer>> isrs() {
        Map<Integer, List<Integer>> isrs = new HashMap<>();
        for (TopicPartitionInfo partition : partitions()) {
            isrs.put(partition.partition(), partition.isr().stream().map(Node::id).sorted().toList());
        }
        return isrs;
    }

    /** The partition's leader, or -1 when it has none or the metadata cannot be had. */
    private int leaderOf(int partition) {
        return partitions().stream().filter(info -> info.partition() == partition && info.leader() != null)
                .mapToInt(info -> info.leader().id()).findFirst().orElse(-1);
    }

    private List<TopicPartitionInfo> partitions() {
        try {
            return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(5, TimeUnit.SECONDS).get(TOPIC)
                    .partitions();
        } catch (Exception e) {
            return List.of();
        }
    }

    private int liveNodes() {
        try {
            return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return 0;
        }
    }
}
