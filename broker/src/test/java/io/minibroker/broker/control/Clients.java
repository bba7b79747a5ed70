package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** kafka-clients 4.4.0 producers, consumers and admins for the controls' tests. */
final class Clients {

    private Clients() {
    }

    static void createTopic(EmbeddedBroker broker, String topic, int partitions) throws Exception {
        try (Admin admin = admin(broker, Map.of())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    static Admin admin(EmbeddedBroker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return Admin.create(config);
    }

    /** An idempotent producer (acks=all) with the given extra settings. */
    static KafkaProducer<String, String> producer(EmbeddedBroker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    static KafkaConsumer<String, String> consumer(EmbeddedBroker broker, String group, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /** Polls until {@code count} records have come, or the deadline (real time: it waits on the client) passes. */
    static List<String> consume(KafkaConsumer<String, String> consumer, int count, Duration within) {
        List<String> values = new ArrayList<>();
        long deadline = System.nanoTime() + within.toNanos();
        while (values.size() < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                values.add(record.value());
            }
        }
        return values;
    }
}
