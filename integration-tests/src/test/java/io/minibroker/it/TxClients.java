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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Transactional producers and consumers of an isolation level, for the exactly-once tests. */
final class TxClients {

    /**
     * Clients give up on a dead broker within seconds, not the defaults' minutes; and the dead consumer's session
     * (restored with its group by the restarted broker) expires after Kafka's minimum, 6 s, not 45, before the new
     * consumer's join completes.
     */
    static final Map<String, Object> IMPATIENT = Map.of(
            "session.timeout.ms", 6_000,
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 4_000,
            "default.api.timeout.ms", 5_000);

    private TxClients() {
    }

    static KafkaProducer<String, String> transactionalProducer(String bootstrap, String transactionalId,
                                                               Map<String, ?> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        return new KafkaProducer<>(config);
    }

    static KafkaConsumer<String, String> consumer(String bootstrap, String isolationLevel, Map<String, ?> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config);
    }

    /**
     * Every record of these partitions from the beginning up to the end offsets this isolation level sees (the
     * last stable offset for read_committed, the high watermark otherwise), partition by partition in order.
     */
    static List<ConsumerRecord<String, String>> readToEnd(String bootstrap, String isolationLevel,
                                                          Collection<TopicPartition> partitions) {
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap, isolationLevel, Map.of())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not at " + ends + " after 60 s; read " + records.size());
                }
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
            return records;
        }
    }

    static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
