package io.minibroker.broker.replica;

import io.micrometer.core.instrument.Gauge;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-73's replication throttle, as {@code kafka-reassign-partitions.sh --throttle} sets it, on a manual clock: node 2
 * joins partition 0 (throttled: {@code leader.replication.throttled.replicas} 0:0, {@code follower.} 0:2) and
 * partition 1 (not throttled) of a topic on nodes 0 and 1. A follower fetch takes one batch
 * ({@code replica.fetch.max.bytes} 1), which alone is above a throttled rate of 1 B/s over the two 1 s windows the
 * rate is measured on: node 2 gets the first batch of partition 0 and then nothing more of it while the clock stands
 * still, though it keeps fetching partition 1 and the in-sync node 1 keeps replicating partition 0; each 2 s the clock
 * moves, the windows empty and one more batch comes, until node 2 catches up, joins the ISR and the move completes.
 * Once with the leader's rate, once with the follower's. Heartbeats run in real time and the session timeout is
 * longer than the clock moves in all, so no broker is fenced meanwhile.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReplicationThrottleTest {

    private static final String TOPIC = "throttled";
    private static final int RECORDS = 5;
    private static final TopicPartition THROTTLED = new TopicPartition(TOPIC, 0);
    private static final TopicPartition UNTHROTTLED = new TopicPartition(TOPIC, 1);

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "60000", "replica.fetch.wait.max.ms", "100",
                "replica.fetch.backoff.ms", "100", "replica.fetch.max.bytes", "1",
                "replication.quota.window.num", "2", "replication.quota.window.size.seconds", "1"), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1), 1, List.of(0, 1)))
                    .configs(Map.of("leader.replication.throttled.replicas", "0:0",
                            "follower.replication.throttled.replicas", "0:2")))).all().get();
        }
        for (int i = 0; i < RECORDS; i++) {
            produce(THROTTLED); // a batch each
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void theLeadersThrottledRateHoldsBackANewReplicaUntilTheClockMoves() throws Exception {
        assertTheMoveIsThrottled(0, "leader.replication.throttled.rate");
    }

    @Test
    void theFollowersThrottledRateHoldsBackANewReplicaUntilTheClockMoves() throws Exception {
        assertTheMoveIsThrottled(2, "follower.replication.throttled.rate");
    }

    /**
     * Deleting a topic's throttled-replica list (IncrementalAlterConfigs DELETE, as {@code kafka-reassign-partitions.sh
     * --verify} clears a finished move's throttle) unthrottles its partitions, as Kafka's TopicConfigHandler removes
     * the throttle: the held move ends with the clock standing.
     */
    @Test
    void deletingTheThrottledReplicasListLetsTheHeldMoveEndWithTheClockStanding() throws Exception {
        try (Admin admin = admin()) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "0");
            String rateKey = "leader.replication.throttled.rate";
            admin.incrementalAlterConfigs(Map.of(broker, List.of(new AlterConfigOp(new ConfigEntry(rateKey, "1"),
                    AlterConfigOp.OpType.SET)))).all().get();
            await(() -> source(admin, broker, rateKey) == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG,
                    rateKey + " on node 0");
            clock.advance(2_000); // node 1's copies' windows gone, as above
            admin.alterPartitionReassignments(Map.of(
                    THROTTLED, Optional.of(new NewPartitionReassignment(List.of(0, 1, 2))))).all().get();
            await(() -> logEndOffset(2, THROTTLED) == 1, "node 2 to take the first batch, have "
                    + logEndOffset(2, THROTTLED));
            assertThat(controllerImage(0).reassigning()).as("held while the clock stands still").isTrue();

            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry("leader.replication.throttled.replicas", ""), AlterConfigOp.OpType.DELETE))))
                    .all().get();
            await(() -> source(admin, topic, "leader.replication.throttled.replicas")
                    != ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, "the list deleted");
            // The leader's answers to node 2's fetches now carry records; an append wakes the one parked meanwhile,
            // whose wait would end only when the clock moves.
            produce(THROTTLED);
            await(() -> !controllerImage(0).reassigning(), "the move's end, the clock standing");
            assertThat(logEndOffset(2, THROTTLED)).isEqualTo(RECORDS + 1);
        }
    }

    private void assertTheMoveIsThrottled(int broker, String rateKey) throws Exception {
        try (Admin admin = admin()) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker));
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(rateKey, "1"),
                    AlterConfigOp.OpType.SET)))).all().get();
            // Answered by that broker from its copy of the image, which puts the rate in force as it takes the image,
            // before the later image with the move. (The value comes back redacted, see docs/compatibility.md.)
            await(() -> source(admin, resource, rateKey) == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG,
                    rateKey + " on node " + broker);

            // Node 1's copies of the batches counted against the leader's throttle too (the partition is throttled
            // whichever follower fetches it, as Kafka records them): their windows go before the move starts.
            clock.advance(2_000);
            admin.alterPartitionReassignments(Map.of(
                    THROTTLED, Optional.of(new NewPartitionReassignment(List.of(0, 1, 2))),
                    UNTHROTTLED, Optional.of(new NewPartitionReassignment(List.of(0, 1, 2))))).all().get();

            await(() -> logEndOffset(2, THROTTLED) == 1, "node 2 to take the first batch, have "
                    + logEndOffset(2, THROTTLED));
            await(() -> !controllerImage(1).reassigning(), "the unthrottled partition's move");
            produce(UNTHROTTLED); // acks=all: node 2, now in its ISR, fetched it
            produce(THROTTLED); // acks=all: the in-sync node 1 is not throttled
            assertThat(logEndOffset(1, THROTTLED)).isEqualTo(RECORDS + 1);
            assertThat(logEndOffset(2, THROTTLED)).as("held back while the clock stands still").isEqualTo(1);
            String byteRate = broker == 0 ? "kafka.server.leaderreplication.byte.rate"
                    : "kafka.server.followerreplication.byte.rate";
            assertThat(gauge(broker, byteRate)).as("Kafka's byte-rate of the throttling side: above its 1 B/s")
                    .isGreaterThan(1.0);
            assertThat(controllerImage(0).reassigning()).isTrue();
            assertThat(admin.listPartitionReassignments().reassignments().get()).containsOnlyKeys(THROTTLED);

            for (int step = 1; controllerImage(0).reassigning(); step++) {
                assertThat(step).as("one batch per step").isLessThanOrEqualTo(RECORDS + 2);
                long before = logEndOffset(2, THROTTLED);
                // Both followers' next fetches parked at the leader first: one sent after the clock moved would
                // park until a time the clock never reaches.
                await(() -> parkedFetchesOnTheLeader() == 2 || !controllerImage(0).reassigning(),
                        "both followers' fetches to be parked at the leader");
                clock.advance(2_000); // the windows holding the last batch are gone
                await(() -> logEndOffset(2, THROTTLED) > before || !controllerImage(0).reassigning(),
                        "node 2 to take one more batch, have " + before);
                assertThat(logEndOffset(2, THROTTLED)).as("one batch per move of the clock")
                        .isLessThanOrEqualTo(before + 1);
            }
            assertThat(controllerImage(0).isr()).containsExactlyInAnyOrder(0, 1, 2);
            assertThat(logEndOffset(2, THROTTLED)).isEqualTo(RECORDS + 1);
            assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
            clock.advance(2_000);
            assertThat(gauge(broker, byteRate)).as("no throttled bytes in the windows any more").isZero();
        }
    }

    private double gauge(int node, String name) {
        return cluster.node(node).meterRegistry().get(name).gauge().value();
    }

    /** Where the broker's answer says the key's value comes from (sent by the broker itself: its copy). */
    private static ConfigEntry.ConfigSource source(Admin admin, ConfigResource resource, String key) {
        try {
            ConfigEntry entry = admin.describeConfigs(List.of(resource)).all().get().get(resource).get(key);
            return entry == null ? null : entry.source();
        } catch (Exception e) {
            return null;
        }
    }

    private long logEndOffset(int node, TopicPartition partition) {
        Gauge gauge = cluster.node(node).meterRegistry().find("kafka.log.log.logendoffset").tag("topic", TOPIC)
                .tag("partition", Integer.toString(partition.partition())).gauge();
        return gauge == null ? -1 : (long) gauge.value();
    }

    private double parkedFetchesOnTheLeader() {
        return cluster.node(0).meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Fetch")
                .gauge().value();
    }

    private PartitionImage controllerImage(int partition) {
        return cluster.controller().topicAssignments().image().topic(TOPIC).orElseThrow().partitions()
                .get(partition);
    }

    private void produce(TopicPartition partition) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, partition.partition(), null, "value")).get();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }
}
