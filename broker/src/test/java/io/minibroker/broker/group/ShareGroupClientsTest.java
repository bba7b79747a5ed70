package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Unmodified kafka-clients 4.4.0 {@link KafkaShareConsumer}s joining a share group through ShareGroupHeartbeat and
 * reading through ShareFetch, two of them sharing one partition, the Admin client's share-group calls, and the
 * group configs ({@code share.auto.offset.reset}) through IncrementalAlterConfigs and DescribeConfigs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareGroupClientsTest {

    private static final String TOPIC = "queue";
    private static final String GROUP = "workers";

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            awaitCoordinator(admin);
        }
    }

    /**
     * The first FindCoordinator creates {@code __consumer_offsets}; a heartbeat whose write finds its partition not
     * there yet is answered COORDINATOR_NOT_AVAILABLE (the member stays joined), and a share consumer closed before
     * it looked for the coordinator again cannot send its leave. Waited for here, as a cluster that has served
     * groups before already has the topic.
     */
    private static void awaitCoordinator(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        admin.describeShareGroups(List.of(GROUP)).all().toCompletionStage().exceptionally(error -> null)
                .toCompletableFuture().get(); // its FindCoordinator creates the topic
        while (true) {
            try {
                if (admin.describeTopics(List.of("__consumer_offsets")).allTopicNames().get()
                        .get("__consumer_offsets").partitions().size() == 50) {
                    return;
                }
            } catch (java.util.concurrent.ExecutionException notYet) {
                assertThat(System.nanoTime()).isLessThan(deadline);
            }
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        broker.close();
    }

    private String bootstrap() {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    private KafkaShareConsumer<String, String> shareConsumer() {
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ConsumerConfig.GROUP_ID_CONFIG, GROUP),
                new StringDeserializer(), new StringDeserializer());
        clients.add(consumer);
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    @Test
    void twoShareConsumersSplitOnePartitionsRecords() throws Exception {
        try (Admin admin = admin()) {
            // share.auto.offset.reset=earliest: the share partition starts at the log start whenever its first fetch
            // comes (the share coordinator has no start offset to show before the first acknowledgement, as Kafka's).
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
                    new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
        KafkaShareConsumer<String, String> first = shareConsumer();
        KafkaShareConsumer<String, String> second = shareConsumer();
        try (Admin admin = admin()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // Both joined and were given the one partition, so that both fetch from it.
            while (!bothAssigned(admin)) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                first.poll(Duration.ofMillis(100));
                second.poll(Duration.ofMillis(100));
            }
            first.poll(Duration.ofMillis(100));
            second.poll(Duration.ofMillis(100));

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 40; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, "k" + i, "v" + i)).get();
                }
            }
            List<String> byFirst = new ArrayList<>();
            List<String> bySecond = new ArrayList<>();
            while (byFirst.size() + bySecond.size() < 40) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                first.poll(Duration.ofMillis(200)).forEach(r -> byFirst.add(r.value()));
                second.poll(Duration.ofMillis(200)).forEach(r -> bySecond.add(r.value()));
            }
            Set<String> all = new HashSet<>(byFirst);
            all.addAll(bySecond);
            assertThat(all).hasSize(40);
            // 40 distinct among 40 received: no record went to both. One consumer may have taken them all, as a
            // share group hands records to whoever fetches first.
            assertThat(byFirst.size() + bySecond.size()).isEqualTo(40);

            Map<String, GroupListing> listed = new java.util.HashMap<>();
            admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get()
                    .forEach(g -> listed.put(g.groupId(), g));
            assertThat(listed).containsKey(GROUP);
            assertThat(listed.get(GROUP).type()).contains(GroupType.SHARE);
            assertThat(listed.get(GROUP).groupState()).contains(GroupState.STABLE);
        }
    }

    private static boolean bothAssigned(Admin admin) throws Exception {
        ShareGroupDescription description;
        try {
            description = admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP);
        } catch (java.util.concurrent.ExecutionException notYet) {
            return false;
        }
        return description.members().size() == 2 && description.members().stream()
                .allMatch(m -> !m.assignment().topicPartitions().isEmpty());
    }

    @Test
    void aClosedShareConsumerLeavesTheGroup() throws Exception {
        KafkaShareConsumer<String, String> consumer = shareConsumer();
        try (Admin admin = admin()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            ShareGroupDescription description = null;
            // Assigned once the partition's share state is initialized, after the member's first heartbeat.
            while (description == null || description.members().isEmpty()
                    || description.members().iterator().next().assignment().topicPartitions().isEmpty()) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                consumer.poll(Duration.ofMillis(100));
                try {
                    description = admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP);
                } catch (java.util.concurrent.ExecutionException notYet) {
                    description = null;
                }
            }
            assertThat(description.groupState()).isEqualTo(GroupState.STABLE);
            assertThat(description.members().iterator().next().assignment().topicPartitions())
                    .extracting(tp -> tp.topic()).containsExactly(TOPIC);
            // A record received tells that the consumer itself took its assignment (its first heartbeat may have
            // been answered COORDINATOR_NOT_AVAILABLE while the offsets topic was being created).
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), new StringSerializer(),
                    new StringSerializer())) {
                while (consumer.poll(Duration.ofMillis(100)).isEmpty()) {
                    assertThat(System.nanoTime()).isLessThan(deadline);
                    producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get();
                }
            }
            consumer.close();
            clients.remove(consumer);
            ShareGroupDescription after = admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP);
            assertThat(after.members()).isEmpty();
            assertThat(after.groupState()).isEqualTo(GroupState.EMPTY);
            admin.deleteShareGroups(List.of(GROUP)).all().get();
            assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get())
                    .isEmpty();
        }
    }

    /**
     * share.auto.offset.reset=by_duration:PT1M, as on a Kafka 4.3.1 node with the same records (2026-11-29): a share
     * consumer gets the records stamped within the minute before its first fetch and none older; where every record
     * is older, a new one is where it starts (fetches before it find nothing to start at: SharePartitionManagerTest).
     */
    @Test
    void byDurationDeliversOnlyRecordsThatRecent() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("old-only", 1, (short) 1))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
                    new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "by_duration:PT1M"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
        long now = System.currentTimeMillis(); // the records' stamps, against the broker's wall clock
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(TOPIC, 0, now - 600_000, null, "ten minutes old")).get();
            producer.send(new ProducerRecord<>(TOPIC, 0, now - 300_000, null, "five minutes old")).get();
            producer.send(new ProducerRecord<>(TOPIC, 0, now - 1_000, null, "a second old")).get();
            producer.send(new ProducerRecord<>(TOPIC, 0, now + 1_000, null, "a second ahead")).get();
            producer.send(new ProducerRecord<>("old-only", 0, now - 600_000, null, "old")).get();
        }
        assertThat(receivedFirst(shareConsumer(), 2)).containsExactly("a second old", "a second ahead");

        KafkaShareConsumer<String, String> other = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ConsumerConfig.GROUP_ID_CONFIG, GROUP),
                new StringDeserializer(), new StringDeserializer());
        clients.add(other);
        other.subscribe(List.of("old-only"));
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>("old-only", 0, System.currentTimeMillis(), null, "fresh")).get();
        }
        assertThat(receivedFirst(other, 1)).containsExactly("fresh");
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()),
                new StringSerializer(), new StringSerializer());
    }

    /** The values of the first polls' records, in order, once at least {@code count} have come. */
    private static List<String> receivedFirst(KafkaShareConsumer<String, String> consumer, int count) {
        List<String> received = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.size() < count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            consumer.poll(Duration.ofMillis(200)).forEach(r -> received.add(r.value()));
        }
        return received;
    }

    @Test
    void shareAutoOffsetResetIsAGroupConfig() throws Exception {
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, GROUP);
        try (Admin admin = admin()) {
            Config defaults = admin.describeConfigs(List.of(group)).all().get().get(group);
            assertThat(defaults.get("share.auto.offset.reset").value()).isEqualTo("latest");
            assertThat(defaults.get("share.delivery.count.limit").value()).isEqualTo("5");
            assertThat(defaults.get("share.record.lock.duration.ms").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);

            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.auto.offset.reset", "sometimes"), AlterConfigOp.OpType.SET))))
                    .all().get()).hasCauseInstanceOf(InvalidConfigurationException.class);
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.no.such.config", "1"), AlterConfigOp.OpType.SET))))
                    .all().get()).hasCauseInstanceOf(InvalidConfigurationException.class);
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.delivery.count.limit", "11"), AlterConfigOp.OpType.SET))))
                    .all().get()).hasCauseInstanceOf(InvalidConfigurationException.class);
            admin.incrementalAlterConfigs(Map.of(group, List.of(
                    new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("share.delivery.count.limit", "3"), AlterConfigOp.OpType.SET))))
                    .all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, "before" + i)).get();
            }
        }

        broker.close(); // the group's configs outlive the node
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = admin()) {
            Config configs = admin.describeConfigs(List.of(group)).all().get().get(group);
            assertThat(configs.get("share.auto.offset.reset").value()).isEqualTo("earliest");
            assertThat(configs.get("share.auto.offset.reset").source())
                    .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG);
            assertThat(configs.get("share.delivery.count.limit").value()).isEqualTo("3");
        }
        // Earliest: the records written before the group's first fetch are delivered.
        KafkaShareConsumer<String, String> consumer = shareConsumer();
        Set<String> received = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.size() < 5) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            consumer.poll(Duration.ofMillis(200)).forEach(r -> received.add(r.value()));
        }
        assertThat(received).containsExactlyInAnyOrder("before0", "before1", "before2", "before3", "before4");

        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.auto.offset.reset", ""), AlterConfigOp.OpType.DELETE)))).all().get();
            assertThat(admin.describeConfigs(List.of(group)).all().get().get(group)
                    .get("share.auto.offset.reset").value()).isEqualTo("latest");
        }
    }
}
