package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leadership going back to a partition's first replica after it restarted: on request, through kafka-clients'
 * {@code Admin.electLeaders} (what {@code kafka-leader-election} sends), and by the controller's automatic
 * rebalance. The old leader becomes a follower of the new one, and the records written on either side of the
 * move are all there, in order.
 *
 * <p>The cluster runs on a manual clock: no session, replica lag or rebalance round runs out on a slow machine
 * unless the test advances it, so leadership moves only when the test means it to (node 1 stops cleanly, which
 * fences it at once, and the test advances to the controller's next election round; the rebalance runs when the
 * test moves the clock by one check interval). Each advance is shorter than the session, so no live node is fenced.
 *
 * <p>Whether node 1 is back in the ISR is asked of the controller, which decides the election, not of a client's
 * describeTopics: the Admin sends that to any broker, whose image may still be one from before node 1 stopped
 * (ISR of three) while another broker already answers leader 2. And node 1's return is awaited with the clock
 * moving by one follower fetch wait at a time: node 1's first caught-up fetch may reach node 2 before node 2's
 * image has node 1 live again, which is no reason to take it back (KIP-841), and the next fetch, parked at node 2
 * on the clock, would otherwise come only at the fetch's socket timeout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PreferredLeaderElectionTest {

    private static final String TOPIC = "preferred";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    private static final long SESSION_MS = 1_500;
    /** How often the controller acts on fenced brokers: a quarter of the session (see LeaderElections). */
    private static final long ELECTION_ROUND_MS = SESSION_MS / 4;
    /** leader.imbalance.check.interval.seconds, in ms: less than the session timeout and the replica lag. */
    private static final long CHECK_INTERVAL_MS = 1_000;
    /** replica.fetch.wait.max.ms: how long a caught-up follower's fetch waits at the leader, on the clock. */
    private static final long FETCH_WAIT_MS = 100;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void anElectionOnRequestMovesLeadershipBackOnceTheFirstReplicaIsInSync() throws Exception {
        startWithLeaderMovedFromNode1("false");
        try (Admin admin = partition().admin()) {
            assertThat(electPreferred(admin)).as("node 1 is down")
                    .containsInstanceOf(PreferredLeaderNotAvailableException.class);

            cluster.restart(1);
            awaitNode1InSync();
            assertThat(partition().leader()).as("nothing moves it back by itself here").isEqualTo(2);

            assertThat(electPreferred(admin)).isEmpty();
            await(() -> partition().leader() == 1, "node 1 to lead");
            assertThat(electPreferred(admin)).containsInstanceOf(ElectionNotNeededException.class);

            assertThat(admin.electLeaders(ElectionType.PREFERRED, null).partitions().get())
                    .as("every partition asked: only those that needed an election are answered").isEmpty();
            assertThat(admin.electLeaders(ElectionType.PREFERRED, Set.of(new TopicPartition("nope", 0)))
                    .partitions().get().get(new TopicPartition("nope", 0)))
                    .containsInstanceOf(UnknownTopicOrPartitionException.class);
        }
        produce(20, 40);
        assertThat(readAll(40)).isEqualTo(values(0, 40));
    }

    @Test
    void theControllerRebalancesLeadershipByItself() throws Exception {
        startWithLeaderMovedFromNode1("true");
        cluster.restart(1);
        awaitNode1InSync();
        assertThat(partition().leader()).as("no rebalance round has come yet").isEqualTo(2);
        clock.advance(CHECK_INTERVAL_MS);
        await(() -> partition().leader() == 1, "the rebalance to give node 1 its partition back");
        assertThat(partition().isr()).containsExactlyInAnyOrder(0, 1, 2);
        produce(20, 40);
        assertThat(readAll(40)).isEqualTo(values(0, 40));
    }

    /** Three nodes; the partition placed on nodes 1, 2, 0 and written to; then node 1 stopped and node 2 leading. */
    private void startWithLeaderMovedFromNode1(String autoRebalance) throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS), "replica.fetch.wait.max.ms", "100",
                "replica.lag.time.max.ms", "3000", "auto.leader.rebalance.enable", autoRebalance,
                "leader.imbalance.check.interval.seconds", String.valueOf(CHECK_INTERVAL_MS / 1_000)), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = partition().admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).all().get();
        }
        await(() -> partition().isr().size() == 3, "the ISR to be every replica");
        produce(0, 20);
        cluster.stop(1); // the controller gives the partition a new leader as it tells node 1 to shut down
        clock.advance(ELECTION_ROUND_MS);
        await(() -> partition().leader() == 2, "node 2, next in the assignment, to lead");
    }

    /**
     * Waits until the controller has node 1 live and in the ISR, what a preferred election needs of it: first live
     * (registered and heartbeating, on a still clock), then in the ISR, moving the clock one fetch wait at a time
     * for a fetch parked at node 2 (a step or two, far from the next rebalance round; each step waits for every
     * running node's heartbeat, so no session runs out).
     */
    private void awaitNode1InSync() {
        await(() -> cluster.controller().membership().isLive(1), "node 1 to register and heartbeat");
        new SessionClock(cluster, clock, SESSION_MS).awaitAdvancing(FETCH_WAIT_MS,
                () -> partition().isr().contains(1), "node 1 to catch up and rejoin the ISR at the controller");
    }

    private Optional<Throwable> electPreferred(Admin admin) throws Exception {
        return admin.electLeaders(ElectionType.PREFERRED, Set.of(PARTITION)).partitions().get().get(PARTITION);
    }

    private void produce(int from, int to) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.controller().boundPort("PLAINTEXT"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (String value : values(from, to)) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, value)).get();
            }
        }
    }

    /**
     * With fetch.max.wait.ms 0: a fetch parked at the leader would wait on the manual clock, holding the consumer's
     * close for its 30 s timeout once the records are read.
     */
    private List<String> readAll(int atLeast) {
        return ReadFromStart.values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT"), ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0),
                PARTITION, atLeast, Duration.ofSeconds(20));
    }

    private static List<String> values(int from, int to) {
        List<String> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add("v" + i);
        }
        return values;
    }

    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }
}
