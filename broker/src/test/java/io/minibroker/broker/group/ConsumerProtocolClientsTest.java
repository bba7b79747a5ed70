package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unmodified kafka-clients 4.4.0 consumers with {@code group.protocol=consumer} (KIP-848) against one broker: joins,
 * partitions spread and moved without ever being owned twice, commits, static membership, a regex subscription
 * resolved by the broker, and the group surviving a restart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsumerProtocolClientsTest {

    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 6;
    private static final Map<String, String> BROKER_CONFIG = Map.of("group.consumer.heartbeat.interval.ms", "200",
            "group.consumer.min.heartbeat.interval.ms", "200");

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, BROKER_CONFIG);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (KafkaConsumer<String, String> consumer : consumers) {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
        broker.close();
    }

    private String bootstrap() {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    private KafkaConsumer<String, String> consumer(String groupId, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(extra);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
        consumers.add(consumer);
        return consumer;
    }

    private void produce(String topic, int partitions, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    /** Polls every consumer in turn, on this thread, until the condition holds. */
    private static void pollUntil(Collection<KafkaConsumer<String, String>> polled, BooleanSupplier condition,
                                  List<ConsumerRecord<String, String>> sink) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for the group").isLessThan(deadline);
            for (KafkaConsumer<String, String> consumer : polled) {
                consumer.poll(Duration.ofMillis(20)).forEach(sink::add);
            }
        }
    }

    @Test
    void oneConsumerGetsEveryPartitionConsumesAndCommits() throws Exception {
        produce(TOPIC, PARTITIONS, 60);
        KafkaConsumer<String, String> consumer = consumer("solo", Map.of());
        consumer.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        pollUntil(List.of(consumer), () -> records.size() == 60, records);
        assertThat(consumer.assignment()).hasSize(PARTITIONS);
        consumer.commitSync();
        Set<TopicPartition> all = new HashSet<>(consumer.assignment());
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(all);
        assertThat(committed.values()).allSatisfy(offset -> assertThat(offset.offset()).isEqualTo(10));

        try (Admin admin = admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("solo")).all().get().get("solo");
            assertThat(group.type()).isEqualTo(GroupType.CONSUMER);
            assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
            assertThat(group.members()).hasSize(1);
            assertThat(group.members().iterator().next().assignment().topicPartitions()).hasSize(PARTITIONS);
            Collection<GroupListing> listed = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get();
            assertThat(listed).anySatisfy(listing -> {
                assertThat(listing.groupId()).isEqualTo("solo");
                assertThat(listing.type()).contains(GroupType.CONSUMER);
            });
            assertThat(admin.listConsumerGroupOffsets("solo").partitionsToOffsetAndMetadata().get()).hasSize(PARTITIONS);
        }
    }

    @Test
    void membersComingAndGoingNeverOwnAPartitionTwice() {
        Map<TopicPartition, String> owners = new HashMap<>();
        List<String> violations = new ArrayList<>();
        List<KafkaConsumer<String, String>> live = new ArrayList<>();
        List<ConsumerRecord<String, String>> ignored = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "c" + i;
            KafkaConsumer<String, String> consumer = consumer("spread", Map.of());
            consumer.subscribe(List.of(TOPIC), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    partitions.forEach(p -> owners.remove(p, name));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    for (TopicPartition p : partitions) {
                        String previous = owners.put(p, name);
                        if (previous != null && !previous.equals(name)) {
                            violations.add(p + " given to " + name + " while " + previous + " owned it");
                        }
                    }
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    onPartitionsRevoked(partitions);
                }
            });
            live.add(consumer);
            pollUntil(live, () -> owners.size() == PARTITIONS && spreadEvenly(live), ignored);
        }
        assertThat(live).allSatisfy(c -> assertThat(c.assignment()).hasSize(PARTITIONS / 3));

        // The first leaves; the other two take its partitions over.
        KafkaConsumer<String, String> leaving = live.remove(0);
        leaving.close();
        consumers.remove(leaving);
        owners.values().removeIf("c0"::equals);
        pollUntil(live, () -> owners.size() == PARTITIONS && spreadEvenly(live), ignored);
        assertThat(violations).isEmpty();
    }

    private static boolean spreadEvenly(List<KafkaConsumer<String, String>> live) {
        int total = live.stream().mapToInt(c -> c.assignment().size()).sum();
        int fair = PARTITIONS / live.size();
        return total == PARTITIONS && live.stream().allMatch(c -> c.assignment().size() >= fair);
    }

    @Test
    void aStaticMemberComesBackToItsPartitions() throws Exception {
        Map<String, Object> staticConfig = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a");
        KafkaConsumer<String, String> first = consumer("static", staticConfig);
        first.subscribe(List.of(TOPIC));
        KafkaConsumer<String, String> other = consumer("static", Map.of());
        other.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> ignored = new ArrayList<>();
        List<KafkaConsumer<String, String>> both = List.of(first, other);
        pollUntil(both, () -> first.assignment().size() == PARTITIONS / 2
                && other.assignment().size() == PARTITIONS / 2, ignored);
        Set<TopicPartition> before = Set.copyOf(first.assignment());
        int epochBefore;
        try (Admin admin = admin()) {
            epochBefore = admin.describeConsumerGroups(List.of("static")).all().get().get("static").groupEpoch()
                    .orElseThrow();
        }
        first.close(); // a static member leaves with epoch -2 and keeps its partitions for its instance id
        consumers.remove(first);
        KafkaConsumer<String, String> again = consumer("static", staticConfig);
        again.subscribe(List.of(TOPIC));
        pollUntil(List.of(again, other), () -> again.assignment().equals(before), ignored);
        assertThat(other.assignment()).hasSize(PARTITIONS / 2);
        try (Admin admin = admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("static")).all().get().get("static");
            assertThat(group.groupEpoch()).contains(epochBefore);
            assertThat(group.members()).hasSize(2);
        }
    }

    @Test
    void aRegexSubscriptionPicksUpANewTopic() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("metrics-a", 2, (short) 1))).all().get();
        }
        KafkaConsumer<String, String> consumer = consumer("regex", Map.of());
        consumer.subscribe(new SubscriptionPattern("metrics-.*"));
        List<ConsumerRecord<String, String>> ignored = new ArrayList<>();
        pollUntil(List.of(consumer), () -> consumer.assignment().size() == 2, ignored);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("metrics-b", 3, (short) 1))).all().get();
        }
        pollUntil(List.of(consumer), () -> consumer.assignment().size() == 5, ignored);
        assertThat(consumer.assignment()).extracting(TopicPartition::topic).containsOnly("metrics-a", "metrics-b");
    }

    @Test
    void theGroupAndItsOffsetsSurviveARestart() throws Exception {
        produce(TOPIC, PARTITIONS, 30);
        Map<String, Object> staticConfig = Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-r");
        KafkaConsumer<String, String> consumer = consumer("durable", staticConfig);
        consumer.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        pollUntil(List.of(consumer), () -> records.size() == 30, records);
        consumer.commitSync();
        int epoch;
        try (Admin admin = admin()) {
            epoch = admin.describeConsumerGroups(List.of("durable")).all().get().get("durable").groupEpoch()
                    .orElseThrow();
        }
        consumer.close();
        consumers.remove(consumer);
        broker.close();

        broker = TestBrokers.start(logDir, BROKER_CONFIG);
        try (Admin admin = admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("durable")).all().get()
                    .get("durable");
            assertThat(group.type()).isEqualTo(GroupType.CONSUMER);
            assertThat(group.groupEpoch()).contains(epoch);
            assertThat(group.members()).singleElement()
                    .satisfies(member -> assertThat(member.groupInstanceId()).contains("instance-r"));
        }
        produce(TOPIC, PARTITIONS, 12);
        KafkaConsumer<String, String> again = consumer("durable", staticConfig);
        again.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> more = new ArrayList<>();
        pollUntil(List.of(again), () -> more.size() >= 12, more);
        assertThat(more).hasSize(12).allSatisfy(record -> assertThat(record.offset()).isGreaterThanOrEqualTo(5));
    }
}
