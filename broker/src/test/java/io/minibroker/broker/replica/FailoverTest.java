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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader killed under a steady acks=all stream: the controller elects another from the ISR when the
 * session expires, the producer goes on, nothing acknowledged is lost, and the old leader rejoins on restart.
 *
 * <p>The cluster runs on a manual clock: the dead leader's session runs out when the test moves the clock past it,
 * with a record sent to it still unanswered, and the live nodes heartbeat through the steps, so that none of them
 * is fenced on a loaded machine. Up to the restart the clock moves less than replica.lag.time.max.ms in all: the ISR
 * shrinks only by the fencing.
 */
class FailoverTest {

    private static final String TOPIC = "failover";
    private static final int RECORDS = 200;
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
                "replica.lag.time.max.ms", "3000", "min.insync.replicas", "2"), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = partition().admin()) {
            // Led by node 1, so that killing the leader leaves the controller's node up.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).all().get();
        }
        await(() -> partition().isr().size() == 3, "the ISR to be every replica");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void nothingAcknowledgedIsLostWhenTheLeaderDies() throws Exception {
        List<String> acked = new ArrayList<>();
        try (KafkaProducer<String, String> producer = producer(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1"))) {
            for (int i = 0; i < RECORDS; i++) {
                if (i == RECORDS / 4) {
                    cluster.kill(1);
                }
                Future<RecordMetadata> send = producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i));
                if (i == RECORDS / 4) {
                    sessions.expireSilentSessions(); // the record just sent waits for the new leader
                }
                send.get(); // a steady stream: one record after another, each acknowledged
                acked.add("v" + i);
            }
        }
        assertThat(partition().leader()).as("a new leader from the ISR").isIn(0, 2);

        List<String> read = readAll(acked.size());
        assertThat(read).containsAll(acked);
        assertThat(read.stream().distinct().toList()).as("in the order acknowledged").isEqualTo(acked);

        cluster.restart(1);
        // on a still clock a caught-up follower's fetch stays parked: see SessionClock#awaitAdvancing
        sessions.awaitAdvancing(FETCH_WAIT_MS, () -> partition().isr().size() == 3,
                "the old leader to truncate, catch up and rejoin the ISR");
    }

    @Test
    void anIdempotentProducerWritesEveryRecordExactlyOnceThroughAFailover() throws Exception {
        List<String> acked = new ArrayList<>();
        try (KafkaProducer<String, String> producer = producer(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.LINGER_MS_CONFIG, "2"))) {
            List<Future<RecordMetadata>> inFlight = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                if (i == RECORDS / 4) {
                    cluster.kill(1);
                }
                inFlight.add(producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)));
                if (i == RECORDS / 4 + 2) {
                    sessions.expireSilentSessions(); // three records sent since the kill wait unanswered
                }
                if (inFlight.size() == 5) { // a steady stream with several batches in flight at the kill
                    for (Future<RecordMetadata> send : inFlight) {
                        send.get();
                    }
                    inFlight.clear();
                }
            }
            for (Future<RecordMetadata> send : inFlight) {
                send.get();
            }
            for (int i = 0; i < RECORDS; i++) {
                acked.add("v" + i);
            }
        }

        assertThat(readAll(RECORDS)).as("every record once, in order").isEqualTo(acked);
    }

    /** An acks=all producer through the controller's node, which stays up, retrying for up to a minute. */
    private KafkaProducer<String, String> producer(Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + cluster.controller().boundPort("PLAINTEXT"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    /**
     * With fetch.max.wait.ms 0: a fetch parked at the leader would wait on the manual clock, holding the consumer's
     * close for its 30 s timeout once the records are read.
     */
    private List<String> readAll(int atLeast) {
        return ReadFromStart.values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT"), ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0),
                new TopicPartition(TOPIC, 0), atLeast, Duration.ofSeconds(20));
    }

    private FirstPartition partition() {
        return new FirstPartition(cluster, TOPIC);
    }
}
