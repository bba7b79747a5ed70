package io.minibroker.broker.replica;

import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kafka-clients 4.4 consumer with {@code client.rack}, in a three-node cluster whose nodes are in racks rack-0,
 * rack-1, rack-2 and run Kafka's RackAwareReplicaSelector: the leader (node 0) points it to node 1, its rack's
 * follower, which then serves its fetches: every record reaches it exactly once, in order, through the follower,
 * and the leader sends it no record bytes at all.
 */
@Timeout(180)
class RackAwareConsumerTest {

    private static final String TOPIC = "near";
    private static final String CLIENT = "rack-1-consumer";
    private static final int RECORDS = 300;

    @Test
    void aConsumerReadsEveryRecordOnceFromTheFollowerInItsRack() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of(
                "replica.selector.class", "org.apache.kafka.common.replica.RackAwareReplicaSelector",
                "auto.leader.rebalance.enable", "false"), id -> Map.of("broker.rack", "rack-" + id))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
            String bootstrap = "localhost:" + cluster.node(0).boundPort("PLAINTEXT");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2))))).all().get();
            }
            await(() -> new FirstPartition(cluster, TOPIC).isr().size() == 3, "every replica in the ISR");
            cluster.controls(0).requestLog().start();
            cluster.controls(1).requestLog().start();

            List<String> values = new ArrayList<>();
            try (KafkaProducer<String, String> producer = WireFetches.acksAllProducer(bootstrap);
                 KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                         ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.CLIENT_ID_CONFIG, CLIENT,
                         ConsumerConfig.CLIENT_RACK_CONFIG, "rack-1", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "50",
                         ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                         new StringDeserializer(), new StringDeserializer())) {
                consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
                List<Long> offsets = new ArrayList<>();
                for (int half = 0; half < 2; half++) { // produced while the consumer reads, too
                    for (int i = half * RECORDS / 2; i < (half + 1) * RECORDS / 2; i++) {
                        producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
                    }
                    int wanted = (half + 1) * RECORDS / 2;
                    await(() -> {
                        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                            offsets.add(record.offset());
                            values.add(record.value());
                        }
                        return offsets.size() >= wanted;
                    }, wanted + " records consumed");
                }
                assertThat(offsets).as("each offset once, in order")
                        .isEqualTo(IntStream.range(0, RECORDS).mapToObj(i -> (long) i).toList());
            }
            assertThat(values).isEqualTo(IntStream.range(0, RECORDS).mapToObj(i -> "v" + i).toList());

            RequestMatch consumerFetches = RequestMatch.api(ApiKey.FETCH).clientId(CLIENT);
            int atLeader = cluster.controls(0).requestLog().find(consumerFetches).size();
            int atFollower = cluster.controls(1).requestLog().find(consumerFetches).size();
            assertThat(atFollower).as("fetches at node 1 (%d at the leader)", atLeader).isGreaterThan(atLeader);
            assertThat(consumerBytesOut(cluster, 0)).as("record bytes the leader sent consumers").isZero();
            assertThat(consumerBytesOut(cluster, 1)).as("record bytes node 1 sent consumers").isPositive();
        }
    }

    /** The record bytes node {@code node} sent consumers of the topic (followers' fetches are counted apart). */
    private static double consumerBytesOut(MiniCluster cluster, int node) {
        var counter = cluster.node(node).meterRegistry().find("kafka.server.brokertopicmetrics.bytesout")
                .tag("topic", TOPIC).counter();
        return counter == null ? 0 : counter.count();
    }
}
