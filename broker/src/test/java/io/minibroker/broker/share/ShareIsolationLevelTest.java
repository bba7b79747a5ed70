package io.minibroker.broker.share;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The group config {@code share.isolation.level} (Kafka's GroupConfig): a read_committed share group acquires only
 * below the last stable offset and archives what aborted transactions wrote, as Kafka's SharePartition does; the
 * transactions' markers are acquired like any record (the consumer acknowledges them as gaps). Written by a
 * kafka-clients 4.4 transactional producer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareIsolationLevelTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();
    private KafkaProducer<String, String> transactional;

    @BeforeEach
    void start() throws Exception {
        transactional = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.port(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx"), new StringSerializer(), new StringSerializer());
        transactional.initTransactions();
    }

    @AfterEach
    void stop() {
        transactional.close(Duration.ofSeconds(5));
    }

    private void setGroupConfigs(Admin admin, String group, Map<String, String> configs) throws Exception {
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((name, value) -> ops.add(new AlterConfigOp(new ConfigEntry(name, value),
                AlterConfigOp.OpType.SET)));
        admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all().get();
    }

    private void transaction(boolean commit, String... values) throws Exception {
        transactional.beginTransaction();
        for (String value : values) {
            transactional.send(new ProducerRecord<>(ShareBroker.TOPIC, 0, null, value)).get();
        }
        if (commit) {
            transactional.commitTransaction();
        } else {
            transactional.abortTransaction();
        }
    }

    /** Waits until the partition's last stable offset is {@code expected}: the markers are written by then. */
    private static void awaitLastStableOffset(Admin admin, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.listOffsets(Map.of(PARTITION, OffsetSpec.latest()),
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).partitionResult(PARTITION).get()
                .offset() != expected) {
            assertThat(System.nanoTime()).isLessThan(deadline);
        }
    }

    private void awaitParkedShareFetch() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (broker.parkedShareFetches() < 1) {
            assertThat(System.nanoTime()).isLessThan(deadline);
        }
    }

    @Test
    void theIsolationLevelIsAGroupConfigWithKafkasValues() throws Exception {
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "g");
        try (Admin admin = broker.admin()) {
            ConfigEntry isolation = admin.describeConfigs(List.of(group)).all().get().get(group)
                    .get("share.isolation.level");
            assertThat(isolation.value()).isEqualTo("read_uncommitted");
            assertThat(isolation.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThatThrownBy(() -> setGroupConfigs(admin, "g", Map.of("share.isolation.level", "READ_COMMITTED")))
                    .hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("String must be one of: read_committed, read_uncommitted");
            setGroupConfigs(admin, "g", Map.of("share.isolation.level", "read_committed"));
            isolation = admin.describeConfigs(List.of(group)).all().get().get(group).get("share.isolation.level");
            assertThat(isolation.value()).isEqualTo("read_committed");
            assertThat(isolation.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
        }
    }

    /**
     * offsets 0-1 committed, 2 its marker, 3-4 aborted, 5 its marker, 6 plain, 7 a transaction left open: the
     * read_committed group gets 0-2 and 5-6 (3-4 archived) and nothing from 7 until the transaction ends, when a
     * parked fetch is woken by the marker; the read_uncommitted group gets 0-7 at once.
     */
    @Test
    void aReadCommittedGroupSkipsAbortedRecordsAndStopsAtTheLastStableOffset() throws Exception {
        try (Admin admin = broker.admin()) {
            setGroupConfigs(admin, "committed", Map.of("share.isolation.level", "read_committed",
                    "share.auto.offset.reset", "earliest"));
            setGroupConfigs(admin, "uncommitted", Map.of("share.auto.offset.reset", "earliest"));
            transaction(true, "c0", "c1");
            transaction(false, "a0", "a1");
            broker.produce(1);
            transactional.beginTransaction();
            transactional.send(new ProducerRecord<>(ShareBroker.TOPIC, 0, null, "open")).get();
            awaitLastStableOffset(admin, 7);

            try (ShareWire committed = broker.member("committed", "m");
                 ShareWire uncommitted = broker.member("uncommitted", "m")) {
                assertThat(acquired(committed.fetch(100)))
                        .containsExactly(List.of(0L, 2L, 1L), List.of(5L, 6L, 1L));
                assertThat(acquired(uncommitted.fetch(100))).containsExactly(List.of(0L, 7L, 1L));

                committed.sendFetch(60_000, 100); // parked: no lock expires on this clock
                awaitParkedShareFetch();
                transactional.commitTransaction();
                assertThat(acquired(committed.receiveFetch())).as("the open transaction's record and its marker")
                        .containsExactly(List.of(7L, 8L, 1L));
            }
        }
    }

    @Test
    void aShareConsumerInAReadCommittedGroupGetsOnlyCommittedRecords() throws Exception {
        try (Admin admin = broker.admin()) {
            setGroupConfigs(admin, "g", Map.of("share.isolation.level", "read_committed",
                    "share.auto.offset.reset", "earliest"));
            transaction(true, "c0", "c1");
            transaction(false, "a0", "a1");
            broker.produce(1);
            transaction(true, "c2");
            KafkaShareConsumer<String, String> consumer = broker.shareConsumer("g");
            List<String> received = broker.acceptEach(consumer, 4);
            assertThat(received).containsExactly("c0", "c1", "v0", "c2");
            // Everything up to the last marker is done with: the aborted records were archived, not held back. The
            // start offset is the one the last acknowledgement was written with, before it moved past (as Kafka's).
            SharePartitionOffsetInfo listed = admin.listShareGroupOffsets(Map.of("g",
                    new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo("g").get().get(PARTITION);
            assertThat(listed.startOffset()).isBetween(0L, 9L);
            assertThat(listed.lag()).contains(0L);
            broker.close(consumer);
        }
    }
}
