package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
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
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group's coordinator looked up on a fresh broker, with kafka-clients: the lookup alone has
 * {@code __consumer_offsets} created, as Kafka's first FindCoordinator does, before anything is written to it;
 * Metadata lists it as internal, so a consumer in that group subscribed by a pattern that matches every topic
 * does not subscribe to it ({@code exclude.internal.topics}, the default) though its first metadata has it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PatternSubscriptionTest {

    private static final String OFFSETS_TOPIC = "__consumer_offsets";

    @TempDir
    Path logDir;

    @Test
    void theCoordinatorsLookupCreatesTheInternalOffsetsTopicWhichAPatternMatchingEverythingLeavesOut()
            throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            // The admin finds the group's coordinator (retrying while it is not available), then asks it.
            assertThat(admin.listConsumerGroupOffsets("by-pattern").partitionsToOffsetAndMetadata().get()).isEmpty();
            assertThat(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())
                    .as("created by the coordinator's lookup, nothing written").containsExactly(OFFSETS_TOPIC);
            assertThat(admin.describeTopics(List.of(OFFSETS_TOPIC)).allTopicNames().get().get(OFFSETS_TOPIC)
                    .isInternal()).isTrue();

            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1), new NewTopic("payments", 1, (short) 1)))
                    .all().get();
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
                producer.send(new ProducerRecord<>("orders", "order")).get();
                producer.send(new ProducerRecord<>("payments", "payment")).get();
            }

            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "by-pattern",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
                consumer.subscribe(Pattern.compile(".*"));
                Set<String> read = new HashSet<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (read.size() < 2 && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                        read.add(record.value());
                    }
                }

                assertThat(read).containsExactlyInAnyOrder("order", "payment");
                assertThat(consumer.subscription()).containsExactlyInAnyOrder("orders", "payments");
                assertThat(consumer.assignment().stream().map(TopicPartition::topic).collect(Collectors.toSet()))
                        .containsExactlyInAnyOrder("orders", "payments");
            }

            assertThat(admin.listTopics().names().get()).as("internal, so hidden by default")
                    .containsExactlyInAnyOrder("orders", "payments");
        }
    }
}
