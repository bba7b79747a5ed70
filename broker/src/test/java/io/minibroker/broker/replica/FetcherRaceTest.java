package io.minibroker.broker.replica;

import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fetch answer that reaches a follower after it became the partition's leader is dropped, as Kafka's fetcher drops
 * the answer for a partition it no longer fetches: the new leader's log and epochs are its own. Node 0 leads both
 * partitions and is hung (its answers held) while its parked fetch from node 1 completes with a record of partition
 * 0; leadership of partition 0 then moves to node 1, and only then is the answer released. Node 1 still follows
 * partition 1 from node 0, so the same fetcher thread gets the answer. On a manual clock, which never moves: the
 * parked fetch completes only on data, and nothing times out. Before the fix node 1 appended the held record to the
 * log it led (log end 2).
 */
class FetcherRaceTest {

    private static final String TOPIC = "raced";

    private final ManualClock clock = new ManualClock();
    private MiniCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFetchAnswerHeldPastALeaderMoveIsNotAppendedToTheNewLeadersLog() throws Exception {
        // The fetch waits at the leader longer than the test can take (its connection's timeout is that wait and
        // 30 s more), and the held produce is not sent again: nothing happens but what the test does.
        cluster = MiniCluster.start(2, Map.of("auto.leader.rebalance.enable", "false",
                "replica.fetch.wait.max.ms", "600000", "replica.lag.time.max.ms", "600000"), clock);
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1), 1, List.of(0, 1)))))
                    .all().get();
        }
        await(() -> isr(0).size() == 2 && isr(1).size() == 2, "both replicas in both ISRs");
        BrokerControls leader = cluster.controls(0);
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "1", // the held record must not come back, retried at the new leader
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "600000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "700000"), new StringSerializer(), new StringSerializer());
        try {
            // The producer connects to node 0 while it still answers; node 1 copies that record of partition 1.
            producer.send(new ProducerRecord<>(TOPIC, 1, null, "connecting")).get();
            await(() -> logEndOffset(1, 1) == 1 && fetchPurgatory(0, "purgatory.size") > 0,
                    "node 1 to have partition 1's record, its next fetch waiting at node 0");
            // Controls act on requests that arrive once set: node 1's fetch waiting at node 0 now is answered at
            // once when the record comes, so node 1 has it; its next fetch waits at node 0 and is answered late.
            leader.hang();
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "replicated")); // its answer is held: not awaited
            await(() -> logEndOffset(1, 0) == 1 && fetchPurgatory(0, "purgatory.size") > 0,
                    "node 1 to have the record, its next fetch waiting at node 0");
            double served = fetchPurgatory(0, "purgatory.completions");

            producer.send(new ProducerRecord<>(TOPIC, 0, null, "held"));
            await(() -> fetchPurgatory(0, "purgatory.completions") > served,
                    "node 1's fetch to be served with the record, its answer held");

            // Node 0, following node 1 once it leads, would cut the record whose file the held answer reads: kept
            // from reaching node 1, it cannot ask where to cut.
            cluster.controls(1).refuseConnections(true);
            int firstEpoch = image(0).leaderEpoch();
            cluster.moveLeader(TOPIC, 0, 1);
            int newEpoch = image(0).leaderEpoch();
            Path checkpoint = cluster.logDir(1).resolve(TOPIC + "-0").resolve("leader-epoch-checkpoint");
            await(() -> LeaderEpochFailoverTest.epochs(checkpoint).containsKey(newEpoch), "node 1 to lead");

            leader.requestLog().clear();
            leader.requestLog().start();
            leader.resume();
            // The fetcher fetches again only once it has dealt with the held answer.
            assertThat(leader.requestLog().await(RequestMatch.api(ApiKey.FETCH), Duration.ofSeconds(30)))
                    .as("node 1's next fetch from node 0").isPresent();

            assertThat(LeaderEpochFailoverTest.epochs(checkpoint))
                    .containsExactly(Map.entry(firstEpoch, 0L), Map.entry(newEpoch, 1L));
            assertThat(logEndOffset(1, 0)).isEqualTo(1);
        } finally {
            leader.resume();
            cluster.controls(1).refuseConnections(false);
            producer.close(Duration.ZERO); // not waiting for answers a failure may have left held
        }
    }

    private PartitionImage image(int partition) {
        return cluster.controller().topicAssignments().image().topic(TOPIC).orElseThrow()
                .partitions().get(partition);
    }

    private List<Integer> isr(int partition) {
        return cluster.controller().topicAssignments().image().topic(TOPIC)
                .map(topic -> topic.partitions().get(partition).isr()).orElse(List.of());
    }

    private long logEndOffset(int node, int partition) {
        Gauge gauge = cluster.node(node).meterRegistry().find("kafka.log.log.logendoffset").tag("topic", TOPIC)
                .tag("partition", String.valueOf(partition)).gauge();
        return gauge == null ? -1 : (long) gauge.value();
    }

    /** A figure of a node's Fetch purgatory: its watch entries, or the fetches completed before their timeout. */
    private double fetchPurgatory(int node, String meter) {
        Meter found = cluster.node(node).meterRegistry().find(meter).tag("delayedOperation", "Fetch").meter();
        return found == null ? -1 : found.measure().iterator().next().getValue();
    }
}
