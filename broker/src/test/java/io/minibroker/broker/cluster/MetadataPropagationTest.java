package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;

/**
 * Issue 17: a new topic is known to every broker by the time a client can use it, however long the heartbeat
 * interval. The cluster keeps Kafka's default {@code broker.heartbeat.interval.ms} (2 s): before brokers followed
 * the controller's image with a parked fetch, a topic's leader learned of it only after its next heartbeat, and a
 * produce sent at once was refused (UNKNOWN_TOPIC_ID) by the leader that every other node already named.
 */
class MetadataPropagationTest {

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of());
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aProducerWithoutRetriesCanProduceToATopicAsSoonAsItIsCreated() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                     ProducerConfig.ACKS_CONFIG, "all",
                     ProducerConfig.RETRIES_CONFIG, "0",
                     // Idempotence needs retries; without it a refused batch is the producer's error at once.
                     ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"),
                     new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 50; i++) {
                String topic = "fresh-" + i;
                // One partition each, so the 50 topics' leaders go round the three nodes.
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get();
                producer.send(new ProducerRecord<>(topic, "k", "v" + i)).get();
            }
        }
    }
}
