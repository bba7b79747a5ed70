package io.minibroker.broker.server;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a kafka-clients consumer reads of one partition from its start. */
public final class ReadFromStart {

    private ReadFromStart() {
    }

    /**
     * The values read until {@code upTo} came or {@code within} passed; a test asking for more than it expects
     * waits out {@code within} to see that no more come.
     */
    public static List<String> values(String bootstrap, TopicPartition partition, int upTo, Duration within) {
        return values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), partition, upTo, within);
    }

    /** As {@link #values(String, TopicPartition, int, Duration)}, for a consumer of this config (SASL, say). */
    public static List<String> values(Map<String, Object> clientConfig, TopicPartition partition, int upTo,
                                      Duration within) {
        return values(clientConfig, List.of(partition), upTo, within);
    }

    /** As above, from several partitions in one consumer (one fetch names them all). */
    public static List<String> values(String bootstrap, List<TopicPartition> partitions, int upTo, Duration within) {
        return values(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), partitions, upTo, within);
    }

    private static List<String> values(Map<String, Object> clientConfig, List<TopicPartition> partitions, int upTo,
                                       Duration within) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + within.toNanos();
            while (values.size() < upTo && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }
}
