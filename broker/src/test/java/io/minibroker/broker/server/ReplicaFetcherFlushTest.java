package io.minibroker.broker.server;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.replica.ReplicaFetchers;
import io.minibroker.broker.replica.ReplicaManager;
import io.micrometer.core.instrument.Gauge;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A follower's fsync ({@code flush.messages}) does not hold up a leadership change: node 1, whose fsync of a record
 * it copied is held (a slow disk), still takes the partition's leadership when the controller moves it there. Before,
 * the fetcher fsynced under the monitor that taking partitions off it waits for, so the image that made node 1 the
 * leader waited for the fsync. Nor does the fetcher the move leaves with nothing to follow: it is stopped, not
 * joined, so node 1 goes on applying images. The record copied stays in the log.
 */
class ReplicaFetcherFlushTest {

    private static final String TOPIC = "flushed";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final String LATER_TOPIC = "later";

    private MiniCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFollowersHeldFsyncDoesNotHoldUpItsLeadership() throws Exception {
        // No lagging follower while its fetcher waits on the fsync: it stays in the ISR, which the move needs.
        cluster = MiniCluster.start(2, Map.of("auto.leader.rebalance.enable", "false",
                "replica.lag.time.max.ms", "600000"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1)))
                    .configs(Map.of("flush.messages", "1")))).all().get();
        }
        await(() -> new FirstPartition(cluster, TOPIC).isr().size() == 2, "both replicas in the ISR");
        ReplicaFetchers follower = TestBrokers.replicas(cluster.node(1)).fetchers();
        follower.holdFlushes();
        try {
            copyARecordThenMoveTheLeader(follower);
        } finally {
            follower.releaseFlushes(); // a failure would otherwise leave node 1's image waiting at the close
        }
        await(() -> follower.flushesHeld() == 0, "the held fsync to run");
        assertThat(logEndOffset(1)).isEqualTo(1);
    }

    private void copyARecordThenMoveTheLeader(ReplicaFetchers follower) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "1"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "copied")).get();
        }
        await(() -> follower.flushesHeld() == 1, "node 1 to have copied the record, its fsync held");

        cluster.moveLeader(TOPIC, 0, 1);
        ReplicaManager replicas = TestBrokers.replicas(cluster.node(1));
        await(() -> replicas.isLeader(PARTITION), "node 1 to lead while its fsync is held");
        // The move left node 1 nothing to follow from node 0, so that fetcher was stopped: a later image must still
        // be applied while its thread waits on the fsync, the stop not joining it.
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(LATER_TOPIC, Map.of(0, List.of(1))))).all().get();
        }
        await(() -> replicas.isLeader(new TopicPartition(LATER_TOPIC, 0)), "node 1 to apply a later image");
        assertThat(follower.flushesHeld()).as("the fsync still held").isEqualTo(1);
    }

    private long logEndOffset(int node) {
        Gauge gauge = cluster.node(node).meterRegistry().find("kafka.log.log.logendoffset").tag("topic", TOPIC)
                .tag("partition", "0").gauge();
        return gauge == null ? -1 : (long) gauge.value();
    }
}
