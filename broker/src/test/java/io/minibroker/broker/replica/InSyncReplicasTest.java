package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import io.micrometer.core.instrument.Gauge;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ISR follows the followers: one stopped leaves it and acks=all goes on with min.insync.replicas=2; with both
 * stopped acks=all is refused NOT_ENOUGH_REPLICAS; restarted, they rejoin, one whose log ends before the leader's
 * log start by restarting its log there, one that missed a batch larger than the topic's max.message.bytes has since
 * become by storing it all the same.
 *
 * <p>The cluster runs on a manual clock: a stop fences the node at once and the test advances to the controller's
 * next round, which takes it out of the ISR, so a loaded machine cannot fence a live node and shrink the ISR more.
 */
class InSyncReplicasTest {

    private static final String TOPIC = "guarded";
    private static final long SESSION_MS = 3_000;
    private static final long FETCH_WAIT_MS = 100;
    private static final long PRODUCE_TIMEOUT_MS = 20_000;
    /** A consumer's Fetch, naming its topic by name. */
    private static final short FETCH_VERSION = 12;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS),
                "replica.fetch.wait.max.ms", String.valueOf(FETCH_WAIT_MS),
                "replica.lag.time.max.ms", "2000", "min.insync.replicas", "2"), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = admin()) {
            // The first topic's only partition is led by node 0, the controller's node, which the test keeps up.
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void stoppedFollowersLeaveTheIsrAndRejoinWhenRestarted() throws Exception {
        await(() -> isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        produce(); // acks=all through the whole ISR

        assertThat(gauge(0, "kafka.server.replicamanager.underreplicatedpartitions")).isZero();
        assertThat(gauge(0, "kafka.controller.kafkacontroller.activecontrollercount")).isEqualTo(1);
        assertThat(gauge(1, "kafka.controller.kafkacontroller.activecontrollercount")).isZero();

        cluster.stop(2);
        sessions.nextControllerRound();
        await(() -> isr().equals(List.of(0, 1)), "node 2 to leave the ISR, have " + isr());
        await(() -> gauge(0, "kafka.server.replicamanager.underreplicatedpartitions") == 1,
                "the leader to count its partition under-replicated");
        produce(); // min.insync.replicas=2 is still met

        cluster.stop(1);
        sessions.nextControllerRound();
        await(() -> isr().equals(List.of(0)), "node 1 to leave the ISR, have " + isr());
        assertThatThrownBy(this::produce).hasCauseInstanceOf(NotEnoughReplicasException.class);

        cluster.restart(1);
        cluster.restart(2);
        // on a still clock a caught-up follower's fetch stays parked: see SessionClock#awaitAdvancing
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> isr().size() == 3, "both to rejoin the ISR");
        produce();
        await(() -> gauge(0, "kafka.server.replicamanager.underreplicatedpartitions") == 0,
                "the leader to count its partition in sync again");
        assertThat(cluster.node(0).meterRegistry().get("kafka.server.replicamanager.isrexpands").counter().count())
                .as("the leader added the returning followers").isPositive();
        assertThat(gauge(0, "kafka.controller.kafkacontroller.offlinepartitionscount")).isZero();
    }

    private double gauge(int node, String name) {
        return cluster.node(node).meterRegistry().get(name).gauge().value();
    }

    /**
     * As Kafka's (KAFKA-15583): a leader whose ISR is under min.insync.replicas holds its high watermark, so a parked
     * acks=all produce is not answered when the ISR shrinks under it but times out, REQUEST_TIMED_OUT.
     */
    @Test
    void aProduceWaitingWhileTheIsrShrinksBelowTheMinimumTimesOut() throws Exception {
        await(() -> isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get(); // connected, metadata known

            Future<RecordMetadata> parked = parkAProduceAndShrinkTheIsrToTheLeader(producer);
            sessions.advanceKeepingSessions(PRODUCE_TIMEOUT_MS);
            assertThatThrownBy(parked::get).cause().isInstanceOf(TimeoutException.class)
                    .hasMessage("The request timed out."); // REQUEST_TIMED_OUT's, not the client's own expiry
        }
    }

    /**
     * Records an acks=1 producer writes to a leader alone in its ISR, under min.insync.replicas, are not committed:
     * the high watermark (ListOffsets latest) stays where the ISR left it, and a consumer's fetch from there and an
     * acks=all produce appended before the ISR shrank stay parked, until a follower is back in the ISR: then the high
     * watermark moves to the log end and both are answered.
     */
    @Test
    void theHighWatermarkStaysWhileTheIsrIsUnderTheMinimum() throws Exception {
        await(() -> isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        try (KafkaProducer<String, String> acksAll = producer(); KafkaProducer<String, String> acksOne = producer("1");
             RawClient consumer = new RawClient(cluster.node(0).boundPort("PLAINTEXT"))) {
            acksAll.send(new ProducerRecord<>(TOPIC, "k", "v")).get(); // offset 0, committed
            Future<RecordMetadata> parked = parkAProduceAndShrinkTheIsrToTheLeader(acksAll); // offset 1
            assertThat(acksOne.send(new ProducerRecord<>(TOPIC, "k", "v")).get().offset()).isEqualTo(2);
            assertThat(highWatermark()).isEqualTo(1);

            consumer.send(RawClient.request(ApiKey.FETCH, FETCH_VERSION, 1, consumerFetch(1)));
            await(() -> parkedFetchesOnTheLeader() == 1, "the consumer's fetch to be parked at the leader");
            assertThat(parked).as("the acks=all produce, under the minimum").isNotDone();

            cluster.restart(1);
            sessions.awaitAdvancing(FETCH_WAIT_MS, parked::isDone, "node 1 to rejoin the ISR, the produce answered");
            assertThat(isr()).containsExactly(0, 1);
            assertThat(parked.get().offset()).isEqualTo(1);
            assertThat(highWatermark()).isEqualTo(3);
            Struct answered = consumer.receive(ApiKey.FETCH, FETCH_VERSION).body()
                    .getStructs("Responses").get(0).getStructs("Partitions").get(0);
            assertThat(answered.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(answered.getInt64("HighWatermark")).isEqualTo(3);
            assertThat(answered.getRecords("Records").readableBytes()).as("records 1 and 2").isPositive();
        }
    }

    /**
     * A follower down while the leader's log start passed its log end (DeleteRecords here, retention alike) finds
     * its fetch offset out of range when it is back, asks the leader where its log starts (ListOffsets), restarts
     * its log there, catches up and rejoins the ISR, as Kafka's follower does.
     */
    @Test
    void aFollowerWhoseLogEndsBeforeTheLeadersStartRestartsThereAndRejoins() throws Exception {
        await(() -> isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        produce(); // offset 0, on every replica
        cluster.stop(2);
        sessions.nextControllerRound();
        await(() -> isr().equals(List.of(0, 1)), "node 2 to leave the ISR, have " + isr());
        for (int i = 0; i < 3; i++) {
            produce(); // offsets 1 to 3, on nodes 0 and 1
        }
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (Admin admin = admin()) {
            KafkaFuture<DeletedRecords> deleted = admin.deleteRecords(Map.of(partition,
                    RecordsToDelete.beforeOffset(3))).lowWatermarks().get(partition);
            // answered once node 1 has the new log start, which its fetch parked at the leader brings back
            sessions.awaitAdvancing(FETCH_WAIT_MS, deleted::isDone, "the deletion to be answered");
            assertThat(deleted.get().lowWatermark()).isEqualTo(3);
        }

        cluster.restart(2); // its log ends at 1, before the leader's start
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> isr().size() == 3, "node 2 to rejoin the ISR");
        assertThat(logOffset(2, "logstartoffset")).isEqualTo(3);
        assertThat(logOffset(2, "logendoffset")).isEqualTo(4);
        produce(); // acks=all through node 2 too
    }

    /**
     * A batch the leader accepted stays storable on its followers after the topic's {@code max.message.bytes} is
     * lowered below its size (Kafka's follower does not check record sizes): a follower down meanwhile fetches it when
     * it is back, catches up and rejoins the ISR, rather than refetching the same offset for ever.
     */
    @Test
    void aFollowerStoresABatchLargerThanTheLoweredMaxMessageBytes() throws Exception {
        await(() -> isr().equals(List.of(0, 1, 2)), "the ISR to be every replica");
        cluster.stop(2);
        sessions.nextControllerRound();
        await(() -> isr().equals(List.of(0, 1)), "node 2 to leave the ISR, have " + isr());
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(TOPIC, "k", "v".repeat(4_000))).get(); // offset 0, on nodes 0 and 1
        }
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC),
                    List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "1024"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }

        cluster.restart(2);
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> isr().size() == 3, "node 2 to rejoin the ISR");
        assertThat(logOffset(2, "logendoffset")).isEqualTo(1);
        produce(); // acks=all through node 2 too
    }

    /**
     * Stops both followers and sends an acks=all produce through {@code producer} (connected, its metadata known),
     * which the leader appends while its ISR still counts three and parks; then the controller's round takes the ISR
     * down to the leader alone, under min.insync.replicas. The produce stays parked.
     */
    private Future<RecordMetadata> parkAProduceAndShrinkTheIsrToTheLeader(KafkaProducer<String, String> producer) {
        // Crashed, they stay in the ISR until their sessions end (a clean stop takes them out at once).
        cluster.kill(1);
        cluster.kill(2);
        // Appended while the ISR still counts three; parked until the ISR shrinks to the leader alone.
        Future<RecordMetadata> parked = producer.send(new ProducerRecord<>(TOPIC, "k", "v"));
        await(() -> parkedProducesOnTheLeader() == 1, "the produce to be parked at the leader");
        sessions.advanceKeepingSessions(SESSION_MS + SESSION_MS / 4);
        await(() -> isr().equals(List.of(0)), "nodes 1 and 2 to leave the ISR, have " + isr());
        return parked;
    }

    /** One of a node's kafka.log.log gauges of the topic's partition 0 (-1 before the node has the partition). */
    private long logOffset(int node, String gauge) {
        Gauge found = cluster.node(node).meterRegistry().find("kafka.log.log." + gauge).tag("topic", TOPIC)
                .tag("partition", "0").gauge();
        return found == null ? -1 : (long) found.value();
    }

    /** The partition's high watermark, as the leader answers ListOffsets latest. */
    private long highWatermark() throws Exception {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (Admin admin = admin()) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get()
                    .offset();
        }
    }

    /** A consumer's fetch of partition 0 from {@code offset}, waiting longer than the test for a byte. */
    private static Struct consumerFetch(long offset) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", 600_000)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", -1).set("FetchOffset", offset).set("PartitionMaxBytes", 1 << 20);
        return fetch;
    }

    private double parkedFetchesOnTheLeader() {
        return cluster.node(0).meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Fetch")
                .gauge().value();
    }

    private double parkedProducesOnTheLeader() {
        return cluster.node(0).meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Produce")
                .gauge().value();
    }

    private void produce() throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get();
        }
    }

    /** acks=all without retries, so the first error is the one the test sees. */
    private KafkaProducer<String, String> producer() {
        return producer("all");
    }

    /**
     * Without retries; its request timeout, which is also the produce's, is real time on the client and the manual
     * clock's on the broker, so only the broker's runs out while the test advances the clock.
     */
    private KafkaProducer<String, String> producer(String acks) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapOnController(),
                ProducerConfig.ACKS_CONFIG, acks,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.RETRIES_CONFIG, "0",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(PRODUCE_TIMEOUT_MS),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(4 * PRODUCE_TIMEOUT_MS)),
                new StringSerializer(), new StringSerializer());
    }

    /** As the controller has it: a restarted broker's image may still show the ISR from before it shrank. */
    private List<Integer> isr() {
        return new FirstPartition(cluster, TOPIC).isr();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapOnController()));
    }

    /** The controller's node answers from the controller's own image first, and stays up throughout. */
    private String bootstrapOnController() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
