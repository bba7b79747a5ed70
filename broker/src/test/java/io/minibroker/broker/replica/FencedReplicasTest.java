package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller removes a fenced broker from the ISR itself, within the session timeout, however long
 * replica.lag.time.max.ms is; its leader takes the smaller ISR and acks=all goes on; a partition whose in-sync
 * replicas are all fenced has no leader but keeps one of them in its ISR.
 *
 * <p>The cluster runs on a manual clock: a killed node's session runs out when the test moves the clock past it,
 * in steps that the live nodes' heartbeats keep up with, so no live node is fenced on a loaded machine.
 */
class FencedReplicasTest {

    private static final long SESSION_MS = 1_500;
    private static final long FETCH_WAIT_MS = 100;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS),
                "replica.fetch.wait.max.ms", String.valueOf(FETCH_WAIT_MS),
                "replica.lag.time.max.ms", "600000", "min.insync.replicas", "2"), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aKilledFollowerLeavesTheIsrWithinTheSessionTimeout() throws Exception {
        FirstPartition partition = create("fenced", List.of(0, 1, 2)); // led by node 0, the controller's, kept up
        produce("fenced");

        cluster.kill(2);
        sessions.expireSilentSessions();
        await(() -> partition.isr().equals(List.of(0, 1)), "node 2 to leave the ISR, have " + partition.isr());
        produce("fenced"); // the leader took the smaller ISR: its high watermark moves without node 2

        cluster.stop(1); // a controlled shutdown takes it out in the step that tells it to shut down: no round
        await(() -> partition.isr().equals(List.of(0)), "node 1 to leave the ISR, have " + partition.isr());

        cluster.restart(1);
        cluster.restart(2);
        // on a still clock a caught-up follower's fetch stays parked: see SessionClock#awaitAdvancing
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> partition.isr().equals(List.of(0, 1, 2)),
                "both to rejoin the ISR");
        produce("fenced");
    }

    @Test
    void aPartitionWhoseInSyncReplicasAreAllFencedKeepsTheLastInItsIsr() throws Exception {
        FirstPartition partition = create("orphaned", List.of(1, 2));

        cluster.kill(2);
        sessions.expireSilentSessions();
        await(() -> partition.isr().equals(List.of(1)), "node 2 to leave the ISR, have " + partition.isr());
        cluster.kill(1);
        sessions.expireSilentSessions();
        await(() -> partition.leader() == -1, "the partition to lose its leader");
        assertThat(partition.isr()).as("the last in-sync replica stays").containsExactly(1);

        cluster.restart(1);
        await(() -> cluster.controller().membership().isLive(1), "node 1 to be live again");
        sessions.nextControllerRound();
        await(() -> partition.leader() == 1, "the last in-sync replica to lead again");
    }

    private FirstPartition create(String topic, List<Integer> replicas) throws Exception {
        FirstPartition partition = new FirstPartition(cluster, topic);
        try (Admin admin = partition.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, Map.of(0, replicas)))).all().get();
        }
        await(() -> partition.isr().size() == replicas.size(), "the ISR to be every replica");
        return partition;
    }

    private void produce(String topic) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.controller().boundPort("PLAINTEXT"),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.RETRIES_CONFIG, "0",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, null, "v")).get();
        }
    }
}
