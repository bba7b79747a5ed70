package io.minibroker.broker.sharestate;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A share partition's state follows the partition's leadership in a three-node cluster: a share consumer accepts
 * some records and releases others, the partition's leader dies (or its leadership is moved), and the new leader,
 * having read the state from {@code __share_group_state}, delivers the released records again with their delivery
 * counts, never the accepted ones, then the records produced since.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: the killed leader's session runs out, but no live node's on a loaded machine.
 */
@Timeout(180)
class ShareStateFailoverTest {

    private static final String TOPIC = "jobs";
    private static final Duration POLL = Duration.ofMillis(100);

    private MiniCluster cluster;
    private SessionClock.Running running;
    private KafkaProducer<String, String> producer;

    @BeforeEach
    void start() throws Exception {
        Map<String, String> settings = new HashMap<>(TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND);
        settings.putAll(Map.of("offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "3",
                "share.coordinator.state.topic.num.partitions", "3"));
        running = SessionClock.startRunning(3, 1_500, settings);
        cluster = running.cluster();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
    }

    @AfterEach
    void close() {
        producer.close();
        running.close();
    }

    @Test
    void theStateSurvivesTheLeaderDying() throws Exception {
        if (cluster.leaderOf(TOPIC, 0) == MiniCluster.CONTROLLER_ID) {
            // Killing the controller would stop the cluster electing anyone: lead from another node.
            cluster.moveLeader(TOPIC, 0, 1);
            await(() -> cluster.leaderOf(TOPIC, 0) == 1, "node 1 to lead " + TOPIC);
        }
        acceptSomeReleaseOthersThenFailOver(leader -> cluster.kill(leader));
    }

    @Test
    void theStateFollowsAMovedLeadership() throws Exception {
        acceptSomeReleaseOthersThenFailOver(leader -> cluster.moveLeader(TOPIC, 0, (leader + 1) % 3));
    }

    private void acceptSomeReleaseOthersThenFailOver(IntConsumer failOver) throws Exception {
        try (KafkaShareConsumer<String, String> consumer = consumer()) {
            // The share partition starts at the high watermark of its first fetch: produce until it delivers.
            int[] warmUp = {0};
            await(() -> {
                send("w" + warmUp[0]++);
                return acknowledgeAll(consumer.poll(POLL), consumer) > 0;
            }, "a first delivery");
            for (int i = 0; i < 10; i++) {
                send("m" + i);
            }
            // m0-m4 accepted, m5-m9 released (delivered once, available again) and left alone.
            Map<String, Short> seen = new HashMap<>();
            await(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    seen.put(record.value(), record.deliveryCount().orElseThrow());
                    int index = record.value().startsWith("m") ? Integer.parseInt(record.value().substring(1)) : -1;
                    consumer.acknowledge(record, index >= 0 && index < 5 || index < 0 ? AcknowledgeType.ACCEPT
                            : AcknowledgeType.RELEASE);
                }
                consumer.commitSync();
                return seen.keySet().containsAll(List.of("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8",
                        "m9"));
            }, "m0-m9 delivered once");
            assertThat(seen).as("every m record's first delivery").containsEntry("m0", (short) 1)
                    .containsEntry("m9", (short) 1);
        }

        int leader = cluster.leaderOf(TOPIC, 0);
        failOver.accept(leader);
        await(() -> {
            int now = cluster.leaderOf(TOPIC, 0);
            return now >= 0 && now != leader;
        }, "another leader of " + TOPIC + "-0");
        for (int i = 0; i < 3; i++) {
            send("n" + i);
        }

        List<ConsumerRecord<String, String>> after = new ArrayList<>();
        try (KafkaShareConsumer<String, String> consumer = consumer()) {
            await(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    after.add(record);
                    consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                }
                consumer.commitSync();
                return after.stream().anyMatch(r -> r.value().equals("n2"));
            }, "the records produced after the failover");
        }
        Map<String, Short> counts = new HashMap<>();
        after.forEach(r -> counts.merge(r.value(), r.deliveryCount().orElseThrow(), (a, b) -> (short) -1));
        assertThat(counts).as("released records again, with their counts; accepted ones never; new ones once")
                .containsExactlyInAnyOrderEntriesOf(Map.of("m5", (short) 2, "m6", (short) 2, "m7", (short) 2,
                        "m8", (short) 2, "m9", (short) 2, "n0", (short) 1, "n1", (short) 1, "n2", (short) 1));
    }

    private KafkaShareConsumer<String, String> consumer() {
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "workers",
                "share.acknowledgement.mode", "explicit"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    private static int acknowledgeAll(Iterable<ConsumerRecord<String, String>> records,
                                      KafkaShareConsumer<String, String> consumer) {
        int count = 0;
        for (ConsumerRecord<String, String> record : records) {
            consumer.acknowledge(record, AcknowledgeType.ACCEPT);
            count++;
        }
        consumer.commitSync();
        return count;
    }

    private void send(String value) {
        producer.send(new ProducerRecord<>(TOPIC, value));
        producer.flush();
    }
}
