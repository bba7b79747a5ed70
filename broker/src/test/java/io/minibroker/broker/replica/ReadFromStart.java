package io.minibroker.broker.replica;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a kafka-clients consumer reads of one partition from its start. */
final class ReadFromStart {

    private ReadFromStart() {
    }

    /**
     * The values read until {@code upTo} came or {@code within} passed; a test asking for more than it expects
     * waits out {@code within} to see that no more come.
     */
    static List<String> values(String bootstrap, TopicPartition partition, int upTo, Duration within) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + within.toNanos();
            while (values.size() < upTo && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }
}
