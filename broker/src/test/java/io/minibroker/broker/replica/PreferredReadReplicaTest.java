package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-392's PreferredReadReplica on the wire, three nodes in racks rack-0, rack-1, rack-2 with
 * {@code replica.selector.class=org.apache.kafka.common.replica.RackAwareReplicaSelector}, as Kafka 4.3.1's leader
 * answers a consumer's Fetch v11+ naming its rack: the in-sync follower in that rack that holds the fetch offset,
 * with no records and at once (never parked); the leader itself (records, no PreferredReadReplica) when the consumer
 * is in the leader's rack, in a rack with no replica, names none, or the follower there is out of the ISR or, in it,
 * has not the offset yet. A fetch that parked at the leader is pointed elsewhere when it completes, if a follower in
 * its rack holds the offset by then. The follower serves the consumer's fetch as it did.
 */
@Timeout(180)
class PreferredReadReplicaTest {

    private static final String TOPIC = "racked";
    private static final String RACK_AWARE = "org.apache.kafka.common.replica.RackAwareReplicaSelector";
    /** A consumer's fetch wait no test reaches: a fetch parked this long fails the test by its timeout. */
    private static final int PARKED_MS = 600_000;

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("replica.selector.class", RACK_AWARE,
                        "auto.leader.rebalance.enable", "false", "replica.lag.time.max.ms", "600000"),
                id -> Map.of("broker.rack", "rack-" + id));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2))))).all().get();
        }
        await(() -> new FirstPartition(cluster, TOPIC).isr().size() == 3, "every replica in the ISR");
        try (KafkaProducer<String, String> producer = WireFetches.acksAllProducer(bootstrap())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
            }
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void theLeaderPointsAConsumerToTheFollowerInItsRackWithoutRecordsAndAtOnce() {
        try (NodeChannel leader = channel(0); NodeChannel follower = channel(1)) {
            // Both followers have fetched past offset 5 once their high watermark covers it.
            await(() -> preferred(fetch(leader, "rack-1", 5, 0)) == 1, "node 1 to be named for offset 5");

            Struct pointed = fetch(leader, "rack-1", 0, PARKED_MS);
            assertThat(error(pointed)).isEqualTo(Errors.NONE);
            assertThat(preferred(pointed)).isEqualTo(1);
            assertThat(WireFetches.recordCount(pointed)).as("no records from the leader").isZero();
            assertThat(pointed.getInt64("HighWatermark")).isEqualTo(5);
            assertThat(preferred(fetch(leader, "rack-2", 5, PARKED_MS)))
                    .as("pointed at once even with nothing to read: never parked").isEqualTo(2);

            // The follower serves it, up to its high watermark, which follows the leader's at its next fetch.
            await(() -> WireFetches.recordCount(fetch(follower, "rack-1", 0, 0)) == 5, "node 1 to serve the five");
            Struct served = fetch(follower, "rack-1", 0, 0);
            assertThat(error(served)).isEqualTo(Errors.NONE);
            assertThat(preferred(served)).isEqualTo(-1);
        }
    }

    @Test
    void theLeaderServesAConsumerInItsOwnRackInNoReplicasRackOrWithoutARack() {
        try (NodeChannel leader = channel(0)) {
            await(() -> preferred(fetch(leader, "rack-1", 5, 0)) == 1, "node 1 to be named for offset 5");
            for (String rack : List.of("rack-0", "rack-9", "")) {
                Struct answer = fetch(leader, rack, 0, 0);
                assertThat(preferred(answer)).as("rack '%s'", rack).isEqualTo(-1);
                assertThat(WireFetches.recordCount(answer)).as("rack '%s'", rack).isEqualTo(5);
            }
        }
    }

    @Test
    void aFollowerOutOfTheIsrOrWithoutTheOffsetIsNotNamed() throws Exception {
        try (NodeChannel leader = channel(0)) {
            await(() -> preferred(fetch(leader, "rack-1", 5, 0)) == 1, "node 1 to be named for offset 5");
            cluster.shrinkIsr(TOPIC, 0, 1);
            assertThat(preferred(fetch(leader, "rack-1", 0, 0))).as("node 1 out of the ISR").isEqualTo(-1);
            cluster.growIsr(TOPIC, 0, 1);
            await(() -> preferred(fetch(leader, "rack-1", 0, 0)) == 1, "node 1 back in the ISR and named");

            cluster.controls(1).lagFollower(TOPIC, 0); // in the ISR still (replica.lag.time.max.ms is far off)
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.ACKS_CONFIG, "1"),
                    new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "v5")).get();
            }
            await(() -> preferred(fetch(leader, "rack-2", 6, 0)) == 2, "node 2 to be named for offset 6");
            assertThat(new FirstPartition(cluster, TOPIC).isr()).contains(1);
            assertThat(preferred(fetch(leader, "rack-1", 6, 0))).as("node 1 has not offset 6").isEqualTo(-1);
            cluster.controls(1).resumeFollower(TOPIC, 0);
        }
    }

    @Test
    void aFetchParkedAtTheLeaderIsPointedToTheFollowerThatCaughtUpMeanwhile() throws Exception {
        try (NodeChannel leader = channel(0);
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.ACKS_CONFIG, "1"),
                     new StringSerializer(), new StringSerializer())) {
            await(() -> preferred(fetch(leader, "rack-1", 5, 0)) == 1, "node 1 to be named for offset 5");
            cluster.controls(1).lagFollower(TOPIC, 0);
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "v5")).get(); // node 1 stays at 5, in the ISR
            await(() -> preferred(fetch(leader, "rack-2", 6, 0)) == 2, "node 2 to hold offset 6");

            // Node 1 has not offset 6: the leader keeps the fetch, which parks (its high watermark is 5).
            CompletableFuture<Struct> parked = CompletableFuture.supplyAsync(() -> {
                try (NodeChannel consumer = channel(0)) {
                    return fetch(consumer, "rack-1", 6, PARKED_MS);
                }
            });
            await(() -> parkedFetches(0) >= 1, "the consumer's fetch to park at the leader");
            cluster.controls(1).resumeFollower(TOPIC, 0);
            await(() -> preferred(fetch(leader, "rack-1", 6, 0)) == 1, "node 1 to hold offset 6");
            assertThat(parked).as("no record past the high watermark yet").isNotDone();

            producer.send(new ProducerRecord<>(TOPIC, 0, null, "v6")).get();
            Struct answer = parked.get();
            assertThat(error(answer)).isEqualTo(Errors.NONE);
            assertThat(preferred(answer)).as("chosen again as it completes, as Kafka's delayed fetch").isEqualTo(1);
            assertThat(WireFetches.recordCount(answer)).isZero();
        }
    }

    private double parkedFetches(int node) {
        return cluster.node(node).meterRegistry().get("purgatory.delayed.operations")
                .tag("delayedOperation", "Fetch").gauge().value();
    }

    /** A consumer's Fetch v12 of partition 0 from {@code fetchOffset}, naming {@code rack}. */
    private static Struct fetch(NodeChannel channel, String rack, long fetchOffset, int maxWaitMs) {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("ReplicaId", -1).set("MaxWaitMs", maxWaitMs)
                .set("MinBytes", 1).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1)
                .set("RackId", rack);
        fetch.addElement("Topics").set("Topic", TOPIC).addElement("Partitions").set("Partition", 0)
                .set("FetchOffset", fetchOffset).set("PartitionMaxBytes", 1 << 20);
        try {
            return channel.send(ApiKey.FETCH, (short) 12, fetch).getStructs("Responses").get(0)
                    .getStructs("Partitions").get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int preferred(Struct partition) {
        return partition.getInt32("PreferredReadReplica");
    }

    private static Errors error(Struct partition) {
        return Errors.forCode(partition.getInt16("ErrorCode"));
    }

    private NodeChannel channel(int node) {
        return new NodeChannel("localhost", cluster.node(node).boundPort("PLAINTEXT"), "preferred-replica-test",
                PARKED_MS + 10_000);
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
