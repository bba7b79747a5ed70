package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.ReadFromStart;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Total/FailedProduceRequestsPerSec and Total/FailedFetchRequestsPerSec counted as Kafka's ReplicaManager counts
 * them: per partition, and an error Kafka expects in normal operation is not a failure.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestCountMetricsTest {

    @Test
    void producesAndFetchesAreCountedPerPartitionAndOnlyUnexpectedErrorsAsFailed() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ProducerConfig.ACKS_CONFIG, "all",
                     ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                     ProducerConfig.RETRIES_CONFIG, 0), new StringSerializer(), new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1),
                    new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic("small", 1, (short) 1).configs(Map.of("max.message.bytes", "200"))))
                    .all().get();
            for (int partition = 0; partition < 3; partition++) {
                producer.send(new ProducerRecord<>("orders", partition, "k", "v")).get(); // one partition each
            }
            // INVALID_RECORD (no key on a compacted topic) is a failure to Kafka; MESSAGE_TOO_LARGE is the client's
            // doing, not counted
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("compacted", null, "v")).get())
                    .hasCauseInstanceOf(InvalidRecordException.class);
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("small", "k", "x".repeat(1000))).get())
                    .hasCauseInstanceOf(RecordTooLargeException.class);

            MeterRegistry meters = kafka.broker().meterRegistry();
            assertThat(count(meters, "totalproducerequests", "orders")).isEqualTo(3);
            assertThat(count(meters, "failedproducerequests", "orders")).isZero();
            assertThat(count(meters, "totalproducerequests", "compacted")).isEqualTo(1);
            assertThat(count(meters, "failedproducerequests", "compacted")).isEqualTo(1);
            assertThat(count(meters, "totalproducerequests", "small")).isEqualTo(1);
            assertThat(count(meters, "failedproducerequests", "small")).isZero();
            assertThat(count(meters, "messagesin", "orders")).isEqualTo(3);
            assertThat(count(meters, "totalfetchrequests", "orders")).as("nothing fetched yet").isZero();

            List<TopicPartition> partitions = List.of(new TopicPartition("orders", 0),
                    new TopicPartition("orders", 1), new TopicPartition("orders", 2));
            int read = ReadFromStart.values(kafka.bootstrapServers(), partitions, 3, Duration.ofSeconds(20)).size();
            assertThat(read).isEqualTo(3);
            assertThat(count(meters, "totalfetchrequests", "orders")).as("each partition read at least once")
                    .isGreaterThanOrEqualTo(3);
            assertThat(count(meters, "failedfetchrequests", "orders")).isZero();
        }
    }

    private static double count(MeterRegistry meters, String name, String topic) {
        Counter counter = meters.find("kafka.server.brokertopicmetrics." + name).tag("topic", topic).counter();
        return counter == null ? 0 : counter.count();
    }
}
