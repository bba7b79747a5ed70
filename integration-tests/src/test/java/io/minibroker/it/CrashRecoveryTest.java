package io.minibroker.it;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 of a broker process in the middle of an acks=all produce stream, then a restart on the same
 * directory: with {@code log.flush.interval.messages=1} every acknowledged record is there, exactly once.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CrashRecoveryTest {

    @TempDir
    Path logDir;

    @Test
    void everyAcknowledgedRecordSurvivesKillMinus9() throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        BrokerProcess first = BrokerProcess.start(logDir, "log.flush.interval.messages=1");
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrap());
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5_000);
        producerConfig.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            int sent = 0;
            long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            while (System.nanoTime() < killAt || acknowledged.size() < 200) {
                String value = "record-" + sent++;
                producer.send(new ProducerRecord<>("crash", value), (metadata, error) -> {
                    if (error == null) {
                        acknowledged.add(value);
                    }
                });
                if (sent % 50 == 0) {
                    Thread.sleep(1);
                }
            }
            first.kill(); // SIGKILL: no shutdown hook, no clean-shutdown marker
            producer.close(Duration.ofSeconds(6)); // let the in-flight sends fail; they were never acknowledged
        }
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(200);

        BrokerProcess second = BrokerProcess.start(logDir, "log.flush.interval.messages=1");
        try {
            List<String> consumed = consumeAll(second.bootstrap());

            assertThat(consumed).as("every acknowledged record is there").containsAll(acknowledged);
            assertThat(consumed).as("none twice").doesNotHaveDuplicates();
        } finally {
            second.process().destroy();
            second.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> consumeAll(String bootstrap) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            TopicPartition tp = new TopicPartition("crash", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (consumer.position(tp) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }
}
