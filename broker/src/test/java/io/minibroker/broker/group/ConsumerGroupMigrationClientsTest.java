package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * KIP-848's online migration with unmodified kafka-clients 4.4.0: a classic group of two consumers is upgraded when
 * a {@code group.protocol=consumer} consumer joins it (the classic members stay, rejoining through the classic
 * protocol), no partition is ever held by two consumers, every record is consumed; when the consumer-protocol member
 * leaves, the group is classic again and the two go on with every partition.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsumerGroupMigrationClientsTest {

    private static final String TOPIC = "migrating";
    private static final String GROUP = "migrating-group";
    private static final int PARTITIONS = 6;

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
    private final Map<TopicPartition, String> owners = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Set<String> consumed = new HashSet<>();
    private int produced;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.consumer.heartbeat.interval.ms", "200",
                "group.consumer.min.heartbeat.interval.ms", "200",
                "group.initial.rebalance.delay.ms", "0"));
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (KafkaConsumer<String, String> consumer : consumers) {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
        broker.close();
    }

    @Test
    void aClassicGroupIsUpgradedWhenAConsumerProtocolMemberJoinsAndDowngradedWhenItLeaves() throws Exception {
        List<KafkaConsumer<String, String>> live = new ArrayList<>();
        live.add(consumer("classic-a", "classic"));
        live.add(consumer("classic-b", "classic"));
        produce(60);
        pollUntil(live, () -> consumed.size() == produced && spreadOver(live));
        assertThat(groupType()).isEqualTo(GroupType.CLASSIC);

        KafkaConsumer<String, String> modern = consumer("modern", "consumer");
        live.add(modern);
        produce(60);
        pollUntil(live, () -> consumed.size() == produced && spreadOver(live));
        assertThat(groupType()).isEqualTo(GroupType.CONSUMER);
        assertThat(live).allSatisfy(c -> assertThat(c.assignment()).hasSize(PARTITIONS / 3));

        live.remove(modern);
        consumers.remove(modern);
        modern.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        owners.values().removeIf("modern"::equals);
        produce(60);
        pollUntil(live, () -> consumed.size() == produced && spreadOver(live)
                && groupTypeOrNull() == GroupType.CLASSIC);
        assertThat(violations).isEmpty();
    }

    /** Every partition owned, by the live consumers, each with at least its fair share. */
    private boolean spreadOver(List<KafkaConsumer<String, String>> live) {
        int total = live.stream().mapToInt(c -> c.assignment().size()).sum();
        return owners.size() == PARTITIONS && total == PARTITIONS
                && live.stream().allMatch(c -> c.assignment().size() >= PARTITIONS / live.size());
    }

    private KafkaConsumer<String, String> consumer(String name, String protocol) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (protocol.equals("classic")) {
            config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 200);
        }
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
        consumers.add(consumer);
        consumer.subscribe(List.of(TOPIC), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                consumer.commitSync(); // what it read stays read: the next owner starts after it
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
                partitions.forEach(p -> owners.remove(p, name));
            }
        });
        return consumer;
    }

    /** Polls every consumer in turn, on this thread, until the condition holds. */
    private void pollUntil(List<KafkaConsumer<String, String>> polled, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for the group; consumed %d of %d, owners %s",
                    consumed.size(), produced, owners).isLessThan(deadline);
            for (KafkaConsumer<String, String> consumer : polled) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(20))) {
                    consumed.add(record.value());
                }
            }
        }
    }

    private void produce(int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, produced % PARTITIONS, "k", "v" + produced));
                produced++;
            }
            producer.flush();
        }
    }

    private GroupType groupType() throws Exception {
        try (Admin admin = admin()) {
            return admin.listGroups().all().get().stream().filter(g -> g.groupId().equals(GROUP))
                    .findFirst().flatMap(g -> g.type()).orElse(null);
        }
    }

    private GroupType groupTypeOrNull() {
        try {
            return groupType();
        } catch (Exception e) {
            return null;
        }
    }

    private String bootstrap() {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }
}
