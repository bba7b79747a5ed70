package io.minibroker.broker.share;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Share consumers in a three-node cluster, the topic replicated three times: each consumer's share fetches go to
 * the partition's leader, records are delivered once replicated (below the high watermark), and two consumers of
 * one group get distinct records.
 */
@Timeout(180)
class ShareClusterTest {

    private static final String TOPIC = "jobs";
    private static final Duration POLL = Duration.ofMillis(100);

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        // Kafka's broker session (9 s): no node is stopped here, so a shorter one could only fence a live node
        // whose heartbeats a loaded machine delayed, and move the partition's leadership under the consumers.
        Map<String, String> settings = new HashMap<>(TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND);
        settings.putAll(Map.of("broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100",
                "offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "3"));
        cluster = MiniCluster.start(3, settings);
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    private KafkaShareConsumer<String, String> consumer() {
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "workers",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
    }

    /** Produces {@code prefix}-numbered records, polling {@code consumer}, until it receives one; what it received. */
    private static List<String> produceUntilDelivered(KafkaProducer<String, String> producer,
                                                      KafkaShareConsumer<String, String> consumer, String prefix)
            throws Exception {
        List<String> received = new ArrayList<>();
        int[] produced = {0};
        await(() -> {
            producer.send(new ProducerRecord<>(TOPIC, prefix + produced[0]++));
            producer.flush();
            consumer.poll(POLL).forEach(r -> received.add(r.value()));
            return !received.isEmpty();
        }, "a first delivery");
        return received;
    }

    /**
     * DeleteGroups of a share group in a cluster: its state goes at the share coordinator, and the partition's leader
     * (whichever node it is) dropped the group's share partition when its last session there ended, so the group made
     * again starts at the high watermark of its first fetch rather than where the deleted group was.
     */
    @Test
    void aDeletedShareGroupMadeAgainStartsAfreshOnTheLeader() throws Exception {
        try (KafkaProducer<String, String> producer = producer();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            try (KafkaShareConsumer<String, String> first = consumer()) {
                produceUntilDelivered(producer, first, "old");
                first.poll(POLL); // acknowledges what it received (implicit acknowledgement)
            }
            await(() -> {
                try {
                    admin.deleteShareGroups(List.of("workers")).all().get();
                    return true;
                } catch (ExecutionException notYet) { // the member's leave not yet handled
                    return false;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, "the group deleted");
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "stale" + i)); // the old state would deliver these
            }
            producer.flush();
            try (KafkaShareConsumer<String, String> again = consumer()) {
                assertThat(produceUntilDelivered(producer, again, "fresh")).allMatch(v -> v.startsWith("fresh"));
            }
        }
    }

    @Test
    void twoConsumersShareAReplicatedPartitionThroughItsLeader() throws Exception {
        try (KafkaShareConsumer<String, String> a = consumer(); KafkaShareConsumer<String, String> b = consumer();
             KafkaProducer<String, String> producer = producer();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            List<String> byA = new ArrayList<>();
            List<String> byB = new ArrayList<>();
            ShareConsumersAssigned.await(admin, "workers", POLL, a, b);
            // Produce until the share partition (started at the high watermark by the first fetch) delivers.
            int[] produced = {0};
            await(() -> {
                producer.send(new ProducerRecord<>(TOPIC, "r" + produced[0]++));
                producer.flush();
                a.poll(POLL).forEach(r -> byA.add(r.value()));
                b.poll(POLL).forEach(r -> byB.add(r.value()));
                return !byA.isEmpty() || !byB.isEmpty();
            }, "a first delivery");
            for (int i = 0; i < 40; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "r" + produced[0]++));
            }
            producer.flush();
            String last = "r" + (produced[0] - 1);
            await(() -> {
                a.poll(POLL).forEach(r -> byA.add(r.value()));
                b.poll(POLL).forEach(r -> byB.add(r.value()));
                return byA.contains(last) || byB.contains(last);
            }, "the last record");
            List<String> all = new ArrayList<>(byA);
            all.addAll(byB);
            assertThat(new HashSet<>(all)).as("no record delivered twice").hasSize(all.size());
            assertThat(byA).isNotEmpty();
            assertThat(byB).isNotEmpty();
        }
    }
}
