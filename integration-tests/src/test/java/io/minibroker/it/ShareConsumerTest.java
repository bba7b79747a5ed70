package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.broker.share.ShareConsumersAssigned;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-clients 4.4's {@code KafkaShareConsumer} sharing one partition: distinct records per consumer, records a
 * closed consumer held going to the other, the delivery-count limit, and explicit acknowledgement (release,
 * reject).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ShareConsumerTest {

    private static final String TOPIC = "queue";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final Duration POLL = Duration.ofMillis(100);

    @TempDir
    Path logDir;

    private EmbeddedBroker kafka;
    private final List<KafkaShareConsumer<String, String>> consumers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        kafka = EmbeddedBroker.start(logDir, TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() {
        consumers.forEach(KafkaShareConsumer::close);
        kafka.close();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    private KafkaShareConsumer<String, String> consumer(String group, boolean explicit, int maxPollRecords)
            throws Exception {
        readFromTheStart(group);
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        config.put("share.acknowledgement.mode", explicit ? "explicit" : "implicit");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(config, new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of(TOPIC));
        consumers.add(consumer);
        return consumer;
    }

    /**
     * The group's share partition starts at the log start ({@code share.auto.offset.reset=earliest}, a group config):
     * as in Kafka, a member is assigned the partition only at a heartbeat after its share state is initialized, and
     * the partition is listed by Admin.listShareGroupOffsets from that initialization on, before the member's first
     * fetch; with {@code latest} records produced in between would be skipped.
     */
    private void readFromTheStart(String group) throws Exception {
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                    new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
    }

    /**
     * Polls until the group's share partition is initialized (listed by Admin.listShareGroupOffsets): its members
     * are assigned it at their next heartbeat.
     */
    private void awaitSharePartition(String group, KafkaShareConsumer<String, String> consumer) {
        try (Admin admin = admin()) {
            Eventually.await(() -> {
                consumer.poll(POLL);
                try {
                    return admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                            .partitionsToOffsetInfo(group).get().containsKey(PARTITION);
                } catch (ExecutionException notYet) {
                    return false;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, "the share partition of " + group);
        }
    }

    private void produce(int count) throws Exception {
        produce(count, count);
    }

    /** {@code count} records, flushed every {@code perFlush}: batches of at most that many. */
    private void produce(int count, int perFlush) throws Exception {
        try (KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "v" + i));
                if ((i + 1) % perFlush == 0) {
                    producer.flush();
                }
            }
            producer.flush();
        }
    }

    @Test
    void twoConsumersSharingAPartitionGetDistinctRecords() throws Exception {
        KafkaShareConsumer<String, String> a = consumer("shared", false, 5);
        KafkaShareConsumer<String, String> b = consumer("shared", false, 5);
        try (Admin admin = admin()) {
            ShareConsumersAssigned.await(admin, "shared", POLL, a, b);
        }
        // Small batches: a fetch acquires whole batches (batch_optimized, the consumer's default), as Kafka does, so
        // one batch of 100 would go to whichever consumer fetched first.
        produce(100, 5);
        List<String> byA = new ArrayList<>();
        List<String> byB = new ArrayList<>();
        Eventually.await(() -> {
            a.poll(POLL).forEach(r -> byA.add(r.value()));
            b.poll(POLL).forEach(r -> byB.add(r.value()));
            return byA.size() + byB.size() >= 100;
        }, () -> "100 records between the two, got " + byA.size() + " and " + byB.size());
        Set<String> all = new HashSet<>(byA);
        all.addAll(byB);
        assertThat(byA.size() + byB.size()).as("no record delivered twice").isEqualTo(100);
        assertThat(all).hasSize(100);
        assertThat(byA).isNotEmpty();
        assertThat(byB).isNotEmpty();
    }

    @Test
    void recordsAConsumerHeldWithoutAcknowledgingGoToTheOtherWhenItCloses() throws Exception {
        KafkaShareConsumer<String, String> a = consumer("handover", true, 100);
        awaitSharePartition("handover", a);
        produce(3);
        List<ConsumerRecord<String, String>> held = new ArrayList<>();
        Eventually.await(() -> {
            a.poll(POLL).forEach(held::add);
            return held.size() == 3;
        }, "a to acquire the three records");
        a.close(); // nothing acknowledged: the records are released
        consumers.remove(a);
        KafkaShareConsumer<String, String> b = consumer("handover", true, 100);
        List<ConsumerRecord<String, String>> redelivered = new ArrayList<>();
        Eventually.await(() -> {
            b.poll(POLL).forEach(r -> {
                redelivered.add(r);
                b.acknowledge(r);
            });
            return redelivered.size() == 3;
        }, "b to get the three records again");
        assertThat(redelivered).extracting(ConsumerRecord::value).containsExactly("v0", "v1", "v2");
        assertThat(redelivered).allSatisfy(r -> assertThat(r.deliveryCount()).contains((short) 2));
    }

    @Test
    void aRecordReleasedEveryTimeIsDeliveredDeliveryCountLimitTimesThenRejectedOnesNever() throws Exception {
        KafkaShareConsumer<String, String> consumer = consumer("limit", true, 100);
        awaitSharePartition("limit", consumer);
        produce(2);
        List<Short> deliveriesOfV0 = new ArrayList<>();
        Eventually.await(() -> {
            for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                if (record.value().equals("v0")) {
                    deliveriesOfV0.add(record.deliveryCount().orElseThrow());
                    consumer.acknowledge(record, AcknowledgeType.RELEASE);
                } else {
                    consumer.acknowledge(record, AcknowledgeType.REJECT);
                }
            }
            consumer.commitSync();
            return deliveriesOfV0.size() >= 5;
        }, () -> "five deliveries of v0, got " + deliveriesOfV0);
        // group.share.delivery.count.limit is 5: the fifth release archived it, and v1 was rejected
        for (int i = 0; i < 10; i++) {
            assertThat(consumer.poll(POLL)).isEmpty();
        }
        assertThat(deliveriesOfV0).containsExactly((short) 1, (short) 2, (short) 3, (short) 4, (short) 5);
    }
}
