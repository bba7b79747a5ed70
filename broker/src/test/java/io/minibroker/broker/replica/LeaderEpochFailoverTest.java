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
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leader epochs across failovers: a consumer reading all along goes on past a leader change (it checks its position
 * with OffsetForLeaderEpoch at the new epoch), and an old leader's unreplicated tail is cut when it follows again,
 * where the new leader's answer to its fetch says its last epoch diverges (DivergingEpoch, Fetch v12+).
 *
 * <p>The cluster runs on a manual clock: a killed node's session runs out only when the test moves the clock past
 * it (in steps the live nodes' heartbeats keep up with), and the controller acts on a stop or a return at the round
 * the test advances to, so a loaded machine neither fences a live node nor lets a session run out early.
 */
class LeaderEpochFailoverTest {

    private static final String TOPIC = "epochs";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final long SESSION_MS = 1_500;
    private static final long FETCH_WAIT_MS = 100;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    private void start(String replicaLagTimeMaxMs, List<Integer> replicas) throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS),
                "replica.fetch.wait.max.ms", String.valueOf(FETCH_WAIT_MS),
                "replica.lag.time.max.ms", replicaLagTimeMaxMs), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = partition().admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, replicas)))).all().get();
        }
        await(() -> partition().isr().size() == replicas.size(), "the ISR to be every replica");
    }

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aConsumerReadingAllAlongGetsEveryAcknowledgedRecordAcrossAFailover() throws Exception {
        start("3000", List.of(1, 2, 0));
        List<String> read = new CopyOnWriteArrayList<>();
        AtomicBoolean reading = new AtomicBoolean(true);
        Thread consumerThread = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = consumer()) {
                consumer.assign(List.of(PARTITION));
                consumer.seekToBeginning(List.of(PARTITION));
                while (reading.get()) {
                    consumer.poll(Duration.ofMillis(100)).forEach(record -> read.add(record.value()));
                }
            }
        }, "epochs-consumer");
        consumerThread.start();
        List<String> acked = new ArrayList<>();
        try (KafkaProducer<String, String> producer = producer("all")) {
            for (int i = 0; i < 100; i++) {
                if (i == 30) {
                    await(() -> read.size() >= 30, "the consumer to read the records before the failover");
                    cluster.kill(1);
                }
                Future<RecordMetadata> send = producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i));
                if (i == 30) {
                    sessions.expireSilentSessions(); // the record just sent waits for the new leader
                }
                send.get();
                acked.add("v" + i);
            }
            await(() -> read.size() >= acked.size(), "the consumer to read every acknowledged record, has "
                    + read.size() + " of " + acked.size());
        } finally {
            reading.set(false);
            consumerThread.join();
        }
        assertThat(partition().leader()).isIn(0, 2);
        assertThat(read.stream().distinct().toList()).as("in the order acknowledged").isEqualTo(acked);
    }

    @Test
    void aRestartedOldLeaderCutsItsDivergentTailAndRejoinsTheIsr() throws Exception {
        // Node 0 (the controller's) holds no replica. Node 2 is killed and node 1 stopped within the session
        // timeout: node 2 is still in the ISR, and live, when node 1's shutdown fences it, so node 2 is elected;
        // fenced in turn, it stays the partition's last in-sync replica and leads when it returns.
        start("60000", List.of(1, 2));
        List<String> expected = new ArrayList<>();
        try (KafkaProducer<String, String> producer = producer("all")) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "replicated-" + i)).get();
                expected.add("replicated-" + i);
            }
        }
        cluster.kill(2);
        try (KafkaProducer<String, String> producer = producer("1")) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "divergent-" + i)).get(); // only node 1 has them
            }
        }
        cluster.stop(1);
        sessions.expireSilentSessions(); // the first round elects node 2, a later one fences it
        await(() -> partition().leader() == -1, "the partition to have no live replica to lead");
        assertThat(partition().isr()).as("the last in-sync replica stays").containsExactly(2);
        cluster.restart(2);
        await(() -> cluster.controller().membership().isLive(2), "node 2 to be live again");
        sessions.nextControllerRound();
        await(() -> partition().leader() == 2, "node 2 to lead");
        try (KafkaProducer<String, String> producer = producer("1")) {
            for (int i = 0; i < 8; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "new-" + i)).get();
                expected.add("new-" + i);
            }
        }
        cluster.restart(1);
        // on a still clock a caught-up follower's fetch stays parked: see SessionClock#awaitAdvancing
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> partition().isr().equals(List.of(1, 2)),
                "the old leader to truncate, catch up and rejoin the ISR");
        assertThat(cluster.node(2).meterRegistry().get("kafka.network.requestmetrics.requests")
                .tag("request", "OffsetForLeaderEpoch").counter().count())
                .as("node 1 found where to cut from the leader's DivergingEpoch answer to its fetch").isZero();
        cluster.stop(2); // node 1 leads again: what it serves is its own log
        sessions.nextControllerRound();
        await(() -> partition().leader() == 1, "node 1 to lead again");
        assertThat(readAll(expected.size())).isEqualTo(expected);
        try (Admin admin = partition().admin()) {
            // a record past them would be there without waiting for it: the log's end says so
            assertThat(admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest())).all().get().get(PARTITION).offset())
                    .as("nothing after them").isEqualTo(expected.size());
        }
    }

    /**
     * Leadership moves to node 2 and back with no record written meanwhile: node 2 began its epoch at its log end
     * and wrote nothing in it, so following node 1 it cuts nothing but drops that epoch, as Kafka's truncateTo does
     * at the log end (the leader's answer puts the cut right there). Read from node 2's checkpoint, which a
     * truncation writes.
     */
    @Test
    void aFormerLeaderDropsTheEpochItWroteNothingInWhenItFollowsAgain() throws Exception {
        start("60000", List.of(1, 2));
        try (KafkaProducer<String, String> producer = producer("all")) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
            }
        }
        Path checkpoint = cluster.logDir(2).resolve(TOPIC + "-0").resolve("leader-epoch-checkpoint");
        int firstEpoch = partition().leaderEpoch();
        cluster.moveLeader(TOPIC, 0, 2);
        int node2Epoch = partition().leaderEpoch();
        await(() -> epochs(checkpoint).containsKey(node2Epoch), "node 2 to lead, beginning its epoch");
        assertThat(epochs(checkpoint)).containsExactly(Map.entry(firstEpoch, 0L), Map.entry(node2Epoch, 10L));

        cluster.moveLeader(TOPIC, 0, 1);

        await(() -> !epochs(checkpoint).containsKey(node2Epoch), "node 2, following, to drop its empty epoch");
        assertThat(epochs(checkpoint)).containsExactly(Map.entry(firstEpoch, 0L));
    }

    /** A {@code leader-epoch-checkpoint}'s entries, epoch to start offset (its two header lines skipped). */
    static Map<Integer, Long> epochs(Path checkpoint) {
        Map<Integer, Long> epochs = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(checkpoint).stream().skip(2).toList()) {
                String[] fields = line.split(" ");
                epochs.put(Integer.parseInt(fields[0]), Long.parseLong(fields[1]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return epochs;
    }

    private KafkaProducer<String, String> producer(String acks) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.ACKS_CONFIG, acks);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0),
                new StringDeserializer(),
                new StringDeserializer());
    }

    /**
     * Reads from the start until {@code count} records came, or 30 s passed (a wait that ends when they are there, so
     * a loaded machine's slow consumer start does not cut it short); with fetch.max.wait.ms 0, as a fetch parked at
     * the leader would wait on the manual clock, holding the consumer's close for its 30 s timeout.
     */
    private List<String> readAll(int count) {
        return ReadFromStart.values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0), PARTITION, count, Duration.ofSeconds(30));
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }

    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }
}
