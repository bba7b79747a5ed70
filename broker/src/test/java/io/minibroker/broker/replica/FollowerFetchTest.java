package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fetch from followers (KIP-392), on the wire: a follower serves a consumer's Fetch v11+ up to its own high
 * watermark, as Kafka's does when the fetch carries client metadata (fetchOnlyLeader false), and leaves older
 * fetches and other replicas' fetches to the leader. A consumer's fetch parked at the follower is answered when the
 * follower's high watermark moves, not at its timeout: the cluster runs on a manual clock that the test moves only in
 * the followers' fetch-wait steps, far less than that timeout.
 */
class FollowerFetchTest {

    private static final String TOPIC = "read-anywhere";
    private static final long SESSION_MS = 1_500;
    private static final long FETCH_WAIT_MS = 100;
    /** A consumer's fetch wait no step of the test reaches: only an event answers a fetch parked this long. */
    private static final int PARKED_MS = 600_000;

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;
    private SessionClock sessions;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", String.valueOf(SESSION_MS),
                "replica.fetch.wait.max.ms", String.valueOf(FETCH_WAIT_MS)), clock);
        sessions = new SessionClock(cluster, clock, SESSION_MS);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2))))).all().get();
        }
        await(() -> new FirstPartition(cluster, TOPIC).isr().size() == 3, "every replica in the ISR");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aFollowerServesConsumersUpToItsHighWatermarkAndWakesThemWhenItMoves() throws Exception {
        try (KafkaProducer<String, String> producer = WireFetches.acksAllProducer(bootstrap());
             NodeChannel follower = channel(1)) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
            }
            sessions.awaitAdvancing(FETCH_WAIT_MS, () -> WireFetches.recordCount(fetch(follower, 12, -1, 0, 0)) == 5,
                    "node 1 to serve the five records");
            assertThat(error(fetch(follower, 10, -1, 0, 0))).as("a fetch before v11 reads from the leader only")
                    .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(error(fetch(follower, 12, 2, 0, 0))).as("another replica's fetch too")
                    .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);

            CompletableFuture<Struct> parked = CompletableFuture.supplyAsync(() -> {
                try (NodeChannel consumer = channel(1)) {
                    return fetch(consumer, 12, -1, 5, PARKED_MS);
                }
            });
            await(() -> parkedFetches(1) == 1, "the consumer's fetch to park at node 1");
            Future<?> sent = producer.send(new ProducerRecord<>(TOPIC, 0, null, "v5"));
            sessions.awaitAdvancing(FETCH_WAIT_MS, parked::isDone, "node 1 to answer the parked fetch");
            sent.get();

            assertThat(error(parked.get())).isEqualTo(Errors.NONE);
            assertThat(WireFetches.recordCount(parked.get())).as("the record, once node 1's high watermark covers it")
                    .isEqualTo(1);
        }
    }

    /** A Fetch of partition 0 (topics by name: v12 and before) by {@code replicaId} (-1: a consumer). */
    private static Struct fetch(NodeChannel channel, int version, int replicaId, long fetchOffset, int maxWaitMs) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", replicaId).set("MaxWaitMs", maxWaitMs)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("FetchOffset", fetchOffset).set("PartitionMaxBytes", 1 << 20);
        try {
            return channel.send(ApiKey.FETCH, (short) version, fetch).getStructs("Responses").get(0)
                    .getStructs("Partitions").get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Errors error(Struct partition) {
        return Errors.forCode(partition.getInt16("ErrorCode"));
    }

    private double parkedFetches(int node) {
        return cluster.node(node).meterRegistry().get("purgatory.delayed.operations")
                .tag("delayedOperation", "Fetch").gauge().value();
    }

    private NodeChannel channel(int node) {
        return new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"), "follower-fetch-test",
                PARKED_MS + 10_000);
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
