package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.ReadFromStart;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** BytesOutPerSec counted as Kafka counts it, and the memory budgets' gauges, from real clients' traffic. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BytesOutAndMemoryBudgetsTest {

    @Test
    void aConsumerReadingEveryRecordOnceIsSentTheBytesProducersAppended() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of("queued.max.request.bytes", "50000000",
                     "socket.request.max.bytes", "1048576")); // the budget is never below the largest frame
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("orders", 0, "k" + i, "v" + i)).get(); // a batch each
            }
            MeterRegistry meters = kafka.broker().meterRegistry();
            assertThat(meters.get("kafka.server.brokertopicmetrics.bytesout").tag("topic", "orders").counter()
                    .count()).as("nothing fetched yet").isZero();

            assertThat(ReadFromStart.values(kafka.bootstrapServers(), new TopicPartition("orders", 0), 10,
                    Duration.ofSeconds(20))).hasSize(10);

            double bytesIn = meters.get("kafka.server.brokertopicmetrics.bytesin").tag("topic", "orders").counter()
                    .count();
            assertThat(meters.get("kafka.server.brokertopicmetrics.bytesout").tag("topic", "orders").counter()
                    .count()).as("each of the ten batches sent once").isEqualTo(bytesIn);

            assertThat(meters.get("kafka.network.socketserver.memorypoolused").gauge().value())
                    .as("no request being read between requests").isZero();
            assertThat(meters.get("kafka.network.socketserver.memorypoolavailable").gauge().value())
                    .isEqualTo(50_000_000.0);
            assertThat(meters.get("minibroker.memory.budget.limit").tag("budget", "requests").gauge().value())
                    .isEqualTo(50_000_000.0);
            assertThat(meters.get("minibroker.memory.budget.limit").tag("budget", "decompression").gauge().value())
                    .isPositive();
            assertThat(meters.get("minibroker.memory.budget.used").tag("budget", "unauthenticated-requests").gauge()
                    .value()).isZero();
        }
    }

    /** One fetch of several partitions of a topic counts each partition's bytes (they are metered per topic). */
    @Test
    void aFetchOfSeveralPartitionsCountsTheBytesOfEach() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic("payments", 3, (short) 1))).all().get();
            List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < 3; partition++) {
                partitions.add(new TopicPartition("payments", partition));
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("payments", partition, "k" + i, "v" + i)).get();
                }
            }
            int read = ReadFromStart.values(kafka.bootstrapServers(), partitions, 9, Duration.ofSeconds(20)).size();
            assertThat(read).isEqualTo(9);

            MeterRegistry meters = kafka.broker().meterRegistry();
            assertThat(meters.get("kafka.server.brokertopicmetrics.bytesout").tag("topic", "payments").counter()
                    .count()).as("every partition's batches, sent once")
                    .isEqualTo(meters.get("kafka.server.brokertopicmetrics.bytesin").tag("topic", "payments")
                            .counter().count());
        }
    }
}
