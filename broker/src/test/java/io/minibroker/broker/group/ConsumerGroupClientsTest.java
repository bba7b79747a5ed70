package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Unmodified kafka-clients 4.4.0 consumers using subscribe() and group.id, and the AdminClient's group calls. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsumerGroupClientsTest {

    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 4;
    private static final Map<String, String> CONFIG = Map.of("group.initial.rebalance.delay.ms", "0",
            "group.min.session.timeout.ms", "500");

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, CONFIG);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
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

    private KafkaConsumer<String, String> consumer(String groupId) {
        return consumer(groupId, Map.of());
    }

    private KafkaConsumer<String, String> consumer(String groupId, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 200);
        config.putAll(extra);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
        clients.add(consumer);
        consumer.subscribe(List.of(TOPIC));
        return consumer;
    }

    private void produce(int from, int to) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    private static List<String> pollUntil(KafkaConsumer<String, String> consumer, int expected) {
        List<String> values = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (values.size() < expected && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                values.add(record.value());
            }
        }
        return values;
    }

    /** Polls every consumer (so each keeps taking part in rebalances) until the condition holds. */
    @SafeVarargs
    private static void pollAllUntil(BooleanSupplier condition, KafkaConsumer<String, String>... consumers) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            for (KafkaConsumer<String, String> consumer : consumers) {
                consumer.poll(Duration.ofMillis(50));
            }
        }
        assertThat(condition.getAsBoolean()).as("condition reached within 60 s").isTrue();
    }

    /** Produces records 0-39, reads them all in a consumer of {@code groupId} and commits; 10 per partition. */
    private KafkaConsumer<String, String> readFortyAndCommit(String groupId) {
        produce(0, 40);
        KafkaConsumer<String, String> consumer = consumer(groupId);
        assertThat(pollUntil(consumer, 40)).hasSize(40);
        consumer.commitSync();
        return consumer;
    }

    private static List<String> values(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "v" + i).toList();
    }

    @Test
    void aSubscribedConsumerGetsEveryPartitionAndReadsEverything() {
        produce(0, 200);
        KafkaConsumer<String, String> consumer = consumer("readers");

        List<String> read = pollUntil(consumer, 200);

        assertThat(read).containsExactlyInAnyOrderElementsOf(values(0, 200));
        assertThat(consumer.assignment()).hasSize(PARTITIONS);
    }

    @Test
    void twoConsumersSplitThePartitionsAndTheSurvivorTakesAllWhenOneLeaves() {
        KafkaConsumer<String, String> first = consumer("pair");
        KafkaConsumer<String, String> second = consumer("pair");

        pollAllUntil(() -> first.assignment().size() == 2 && second.assignment().size() == 2, first, second);
        Set<TopicPartition> union = new HashSet<>(first.assignment());
        union.addAll(second.assignment());
        assertThat(union).hasSize(PARTITIONS);

        second.close();
        pollAllUntil(() -> first.assignment().size() == PARTITIONS, first);
        produce(0, 100);
        assertThat(pollUntil(first, 100)).containsExactlyInAnyOrderElementsOf(values(0, 100));
    }

    @Test
    void aNewConsumerOfTheGroupResumesAfterTheCommittedOffsets() {
        produce(0, 100);
        KafkaConsumer<String, String> first = consumer("resumers");
        assertThat(pollUntil(first, 100)).hasSize(100);
        first.commitSync();
        first.close();

        produce(100, 150);
        KafkaConsumer<String, String> second = consumer("resumers");
        List<String> read = pollUntil(second, 50);

        assertThat(read).containsExactlyInAnyOrderElementsOf(values(100, 150));
        assertThat(second.poll(Duration.ofMillis(500))).isEmpty();
        assertThat(second.committed(Set.of(new TopicPartition(TOPIC, 0))).get(new TopicPartition(TOPIC, 0)))
                .extracting(OffsetAndMetadata::offset).isEqualTo(25L);
    }

    @Test
    void adminListsDescribesAndDeletesGroups() throws Exception {
        KafkaConsumer<String, String> consumer = consumer("audited");
        pollAllUntil(() -> consumer.assignment().size() == PARTITIONS, consumer);
        consumer.commitSync();

        // An explicit commit: commitSync() sends nothing while the consumer has no positions yet.
        consumer.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(0)));

        try (Admin admin = admin()) {
            assertThat(admin.listTopics().names().get()).as("internal, so hidden by default")
                    .doesNotContain("__consumer_offsets");
            assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
                    .contains("__consumer_offsets");
            assertThat(admin.listGroups().all().get()).extracting(GroupListing::groupId).contains("audited");
            ConsumerGroupDescription description =
                    admin.describeConsumerGroups(List.of("audited")).describedGroups().get("audited").get();
            assertThat(description.groupState()).isEqualTo(GroupState.STABLE);
            assertThat(description.members()).singleElement().satisfies(member -> {
                assertThat(member.assignment().topicPartitions()).hasSize(PARTITIONS);
                assertThat(member.host()).as("Kafka's clientHost: the address, no port").isEqualTo("/127.0.0.1");
            });

            assertThatThrownBy(() -> admin.deleteConsumerGroups(List.of("audited")).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(GroupNotEmptyException.class);

            consumer.close();
            admin.deleteConsumerGroups(List.of("audited")).all().get();
            assertThat(admin.listGroups().all().get()).extracting(GroupListing::groupId).doesNotContain("audited");
        }
    }

    @Test
    void adminDeletesAGroupsOffsetsOnlyWhereItNoLongerConsumesAndTheDeletionSurvivesARestart() throws Exception {
        KafkaConsumer<String, String> consumer = readFortyAndCommit("pruned");
        TopicPartition first = new TopicPartition(TOPIC, 0);
        TopicPartition second = new TopicPartition(TOPIC, 1);

        try (Admin admin = admin()) {
            assertThatThrownBy(() -> admin.deleteConsumerGroupOffsets("pruned", Set.of(first)).all().get())
                    .as("a member still subscribes to the topic").hasCauseInstanceOf(GroupSubscribedToTopicException.class);
            assertThatThrownBy(() -> admin.deleteConsumerGroupOffsets("never-seen", Set.of(first)).all().get())
                    .hasCauseInstanceOf(GroupIdNotFoundException.class);
            assertThatThrownBy(() -> admin.deleteConsumerGroupOffsets("pruned",
                    Set.of(new TopicPartition("no-such-topic", 0))).all().get())
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);

            consumer.close();
            admin.deleteConsumerGroupOffsets("pruned", Set.of(first, second)).all().get();

            assertThat(admin.listConsumerGroupOffsets("pruned").partitionsToOffsetAndMetadata().get())
                    .doesNotContainKeys(first, second).hasSize(PARTITIONS - 2);
        }
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
        try (Admin admin = admin()) {
            assertThat(admin.listConsumerGroupOffsets("pruned").partitionsToOffsetAndMetadata().get())
                    .as("the tombstones replayed").doesNotContainKeys(first, second).hasSize(PARTITIONS - 2);
        }
    }

    /**
     * On a manual clock, which the broker is restarted onto: the silent member's 1 s session must not run out
     * between its join and its sync however slow the machine, only when the test moves the clock past it.
     */
    @Test
    void aMemberThatStopsHeartbeatingLosesItsPartitionsAfterItsSessionTimeout() throws Exception {
        ManualClock clock = new ManualClock();
        broker.close();
        broker = TestBrokers.start(logDir, CONFIG, clock);
        // Its fetches do not wait: one parked on this clock would hold the consumer's close for 30 s.
        KafkaConsumer<String, String> survivor = consumer("crashers",
                Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 0));
        pollAllUntil(() -> survivor.assignment().size() == PARTITIONS, survivor);

        // A second member joins by hand, takes its share, then falls silent as a crashed process would.
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(
                new ConsumerPartitionAssignor.Subscription(List.of(TOPIC)));
        byte[] metadata = new byte[subscription.remaining()];
        subscription.get(metadata);
        try (GroupWireClient silent = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            CompletableFuture<Struct> assignment = CompletableFuture.supplyAsync(() -> {
                try {
                    String memberId = silent.call(ApiKey.JOIN_GROUP, 9,
                            GroupProtocolErrorsTest.joinRequest("crashers", "", 1_000, metadata)).getString("MemberId");
                    Struct joined = silent.call(ApiKey.JOIN_GROUP, 9,
                            GroupProtocolErrorsTest.joinRequest("crashers", memberId, 1_000, metadata));
                    return silent.call(ApiKey.SYNC_GROUP, 5, ApiKey.SYNC_GROUP.request().newMessage()
                            .set("GroupId", "crashers").set("GenerationId", joined.getInt32("GenerationId"))
                            .set("MemberId", memberId));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            pollAllUntil(assignment::isDone, survivor);
            assertThat(assignment.get().getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(assignment.get().getBytes("Assignment")))
                    .partitions()).hasSize(PARTITIONS / 2);

            clock.advance(1_000); // the silent member's session is over: its partitions go back to the survivor
            pollAllUntil(() -> survivor.assignment().size() == PARTITIONS, survivor);
        }
    }

    @Test
    void committedOffsetsSurviveABrokerRestart() throws Exception {
        readFortyAndCommit("durable").close();

        broker.close();
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
        try (Admin admin = admin()) {
            assertThat(admin.listGroups().all().get()).extracting(GroupListing::groupId).contains("durable");
        }
        produce(40, 60);
        KafkaConsumer<String, String> second = consumer("durable");

        assertThat(pollUntil(second, 20)).containsExactlyInAnyOrderElementsOf(values(40, 60));
        assertThat(second.poll(Duration.ofMillis(500))).isEmpty();
        try (Admin admin = admin()) {
            // 40 records over 4 partitions, committed before the restart
            assertThat(admin.listConsumerGroupOffsets("durable").partitionsToOffsetAndMetadata().get())
                    .hasSize(PARTITIONS)
                    .allSatisfy((partition, offset) -> assertThat(offset.offset()).isEqualTo(10L));
        }
    }

    @Test
    void aRestartedStaticFollowerGetsItsOwnPartitionsBackWithoutARebalance() {
        KafkaConsumer<String, String> leader = consumer("static", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "a"));
        pollAllUntil(() -> leader.assignment().size() == PARTITIONS, leader);
        KafkaConsumer<String, String> follower =
                consumer("static", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "b"));
        pollAllUntil(() -> leader.assignment().size() == 2 && follower.assignment().size() == 2, leader, follower);
        Set<TopicPartition> followerOwned = Set.copyOf(follower.assignment());
        int generation = leader.groupMetadata().generationId();

        follower.close(); // a static member does not leave on close
        KafkaConsumer<String, String> restarted =
                consumer("static", Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "b"));
        pollAllUntil(() -> restarted.assignment().size() == 2, restarted, leader);

        assertThat(restarted.assignment()).isEqualTo(followerOwned);
        assertThat(restarted.groupMetadata().generationId()).isEqualTo(generation);
        assertThat(leader.groupMetadata().generationId()).isEqualTo(generation);
    }
}
