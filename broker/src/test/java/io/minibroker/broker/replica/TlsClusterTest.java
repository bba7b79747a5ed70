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
import org.apache.kafka.common.config.SaslConfigs;
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
 * produces and consumes. The same with SASL_SSL everywhere.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsClusterTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"broker\" password=\"broker-secret\" user_broker=\"broker-secret\" user_alice=\"alice-secret\";";

    @Test
    void nodesReplicateOverTlsBetweenThem() throws Exception {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "PKCS12"));
        settings.putAll(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SSL,CONTROLLER:SSL",
                "ssl.client.auth", "required",
                "broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100"));
        Map<String, Object> client = new HashMap<>(CERTIFICATES.clientSettings("PKCS12", ALICE));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        replicateAcksAll(settings, client);
    }

    /** SASL_SSL everywhere: nodes connect over TLS, then sign in with PLAIN, as on SASL_PLAINTEXT. */
    @Test
    void nodesReplicateOverSaslSslBetweenThem() throws Exception {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "JKS"));
        settings.putAll(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SASL_SSL,CONTROLLER:SASL_SSL",
                "sasl.enabled.mechanisms", "PLAIN",
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "sasl.mechanism.controller.protocol", "PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config", JAAS,
                "listener.name.controller.plain.sasl.jaas.config", JAAS,
                "broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100"));
        Map<String, Object> client = new HashMap<>(CERTIFICATES.clientSettings("JKS", null));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        client.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        client.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"alice\" password=\"alice-secret\";");
        replicateAcksAll(settings, client);
    }

    private static void replicateAcksAll(Map<String, String> settings, Map<String, Object> client) throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3,
                    "three brokers registered through the controller listener");
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
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
