package io.minibroker.it;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** String producers and consumers for tests that only need records to go in and come out. */
public final class Clients {

    private Clients() {
    }

    public static KafkaProducer<String, String> producer(String bootstrapServers) {
        return producer(bootstrapServers, Map.of());
    }

    /** The same, with these settings too (a SASL client's, acks, say). */
    public static KafkaProducer<String, String> producer(String bootstrapServers, Map<String, ?> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return new KafkaProducer<>(config);
    }

    /** Reads partition 0 of the topic from the beginning until {@code count} records have arrived. */
    public static List<String> readValues(String bootstrapServers, String topic, int count) {
        return readValues(bootstrapServers, Map.of(), topic, count);
    }

    /** The same, with these settings too (a SASL client's, say). */
    public static List<String> readValues(String bootstrapServers, Map<String, ?> settings, String topic, int count) {
        return readValues(bootstrapServers, settings, List.of(new TopicPartition(topic, 0)), count);
    }

    /** Reads these partitions from the beginning until {@code count} records have arrived, in all. */
    public static List<String> readValues(String bootstrapServers, List<TopicPartition> partitions, int count) {
        return readValues(bootstrapServers, Map.of(), partitions, count);
    }

    private static List<String> readValues(String bootstrapServers, Map<String, ?> settings,
                                           List<TopicPartition> partitions, int count) {
        try (KafkaConsumer<String, String> consumer = fromBeginning(bootstrapServers, settings, partitions)) {
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }

    /**
     * Every record of these partitions, from the beginning to their end offsets when the read starts (with
     * read_committed in the settings: to their last stable offsets), so that a duplicate is seen, not cut off by a
     * count.
     */
    public static List<String> readAllValues(String bootstrapServers, Map<String, ?> settings,
                                             List<TopicPartition> partitions) {
        try (KafkaConsumer<String, String> consumer = fromBeginning(bootstrapServers, settings, partitions)) {
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }

    private static KafkaConsumer<String, String> fromBeginning(String bootstrapServers, Map<String, ?> settings,
                                                               List<TopicPartition> partitions) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }
}
