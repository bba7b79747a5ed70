package io.minibroker.it;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The meters Kafka's dashboards read, counted as Kafka counts them, from real clients' traffic. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KafkaMetricsTest {

    @Test
    void messagesAndBytesInArePerTopicAndErrorsPerRequestAndCode() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of("auto.create.topics.enable", "false",
                "num.partitions", "1"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1)))
                    .all().get();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("orders", "k" + i, "v" + i));
            }
            producer.flush();
            assertThatThrownBy(() -> admin.describeTopics(List.of("missing")).allTopicNames().get())
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);

            MeterRegistry meters = kafka.broker().meterRegistry();
            assertThat(meters.get("kafka.server.brokertopicmetrics.messagesin").tag("topic", "orders").counter()
                    .count()).isEqualTo(10.0);
            assertThat(meters.get("kafka.server.brokertopicmetrics.bytesin").tag("topic", "orders").counter()
                    .count()).as("the batches' bytes, at least ten records' worth").isGreaterThan(10 * 4);
            assertThat(meters.get("kafka.network.requestmetrics.errors").tags("request", "Produce", "error", "NONE")
                    .counter().count()).isPositive();
            assertThat(meters.get("kafka.network.requestmetrics.errors")
                    .tags("request", "DescribeTopicPartitions", "error", "UNKNOWN_TOPIC_OR_PARTITION").counter().count())
                    .isPositive();
            assertThat(meters.get("kafka.server.replicamanager.partitioncount").gauge().value())
                    .as("orders-0, and __consumer_offsets is not there: no group was used").isEqualTo(1.0);
        }
    }
}
