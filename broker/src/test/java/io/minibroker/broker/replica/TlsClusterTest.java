package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.security.TestCertificates;
import io.minibroker.broker.server.ReadFromStart;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster whose every listener is SSL with client certificates required, as a Kafka cluster with
 * {@code ssl.client.auth=required} on its inter-broker and controller listeners: brokers reach the controller
 * and each other over TLS with their own key store (presenting the broker certificate) and check the other
 * node's certificate and host name; acks=all with three replicas works, and a client with a certificate
 * produces and consumes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsClusterTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    @Test
    void nodesReplicateOverTlsBetweenThem() throws Exception {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "PKCS12"));
        settings.putAll(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SSL,CONTROLLER:SSL",
                "ssl.client.auth", "required",
                "broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100"));
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3,
                    "three brokers registered through the SSL controller listener");
            Map<String, Object> client = new HashMap<>(CERTIFICATES.clientSettings("PKCS12", ALICE));
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic("secured", 1, (short) 3))).all().get();
                await(() -> isr(admin).size() == 3, "every replica in sync, fetching over TLS");
            }
            Map<String, Object> producerConfig = new HashMap<>(client);
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("secured", 0, null, "v" + i)).get();
                }
            }
            List<String> read = ReadFromStart.values(client, new TopicPartition("secured", 0), 10,
                    Duration.ofSeconds(20));
            assertThat(read).hasSize(10).startsWith("v0").endsWith("v9");
        }
    }

    private static List<Integer> isr(Admin admin) {
        try {
            TopicDescription description = admin.describeTopics(List.of("secured")).allTopicNames().get().get("secured");
            return description.partitions().get(0).isr().stream().map(node -> node.id()).toList();
        } catch (Exception e) {
            return List.of();
        }
    }
}
