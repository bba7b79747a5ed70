package io.minibroker.broker.quota;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-clients' producer and consumer under small byte-rate quotas: both see the broker's throttle (their
 * produce-throttle-time-avg and fetch-throttle-time-avg metrics, from the responses' ThrottleTimeMs), and every
 * record is still acknowledged and read. 250 KB against 20 KB/s: a rate measured over at least 10 s passes the
 * bound once more than 200 KB went, whatever the machine's speed; the consumer's fetches hold at most the 200 KB a
 * window lets through, and its last one is answered once the windows let it (about 10 s in all).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ByteRateQuotaClientsTest {

    private static final int RECORDS = 250;

    @TempDir
    Path logDir;

    @Test
    void aThrottledProducerAndConsumerStillMoveEveryRecord() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1))).all().get();
            admin.alterClientQuotas(List.of(
                    quota("slow-producer", "producer_byte_rate"), quota("slow-consumer", "consumer_byte_rate")))
                    .all().get();
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");

            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.CLIENT_ID_CONFIG, "slow-producer",
                    ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(), new ByteArraySerializer())) {
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = 0; i < RECORDS; i++) {
                    sent.add(producer.send(new ProducerRecord<>("metered", new byte[1000])));
                }
                for (Future<RecordMetadata> acknowledged : sent) {
                    acknowledged.get();
                }
                assertThat(metric(producer.metrics(), "produce-throttle-time-avg")).isPositive();
            }

            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.CLIENT_ID_CONFIG, "slow-consumer",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.GROUP_ID_CONFIG, "metered"),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.subscribe(List.of("metered"));
                int read = 0;
                while (read < RECORDS) {
                    read += consumer.poll(Duration.ofSeconds(1)).count();
                }
                assertThat(read).isEqualTo(RECORDS);
                assertThat(metric(consumer.metrics(), "fetch-throttle-time-avg")).isPositive();
            }
        }
    }

    private static ClientQuotaAlteration quota(String clientId, String key) {
        return new ClientQuotaAlteration(new ClientQuotaEntity(Map.of("client-id", clientId)),
                List.of(new ClientQuotaAlteration.Op(key, 20_000.0)));
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(entry -> entry.getKey().name().equals(name)).findFirst()
                .map(entry -> ((Number) entry.getValue().metricValue()).doubleValue()).orElseThrow();
    }
}
