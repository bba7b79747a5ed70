package io.minibroker.broker.replica;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.embedded.MiniCluster;
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

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster whose every listener is SASL_PLAINTEXT, as a Kafka cluster with sasl.mechanism.inter.broker.protocol
 * and sasl.mechanism.controller.protocol set to PLAIN: brokers sign in to the controller (registration, heartbeats,
 * the image, forwarded admin requests) and to each other (replica fetchers) with their listener's own username and
 * password, so acks=all with three replicas works; a client signs in as its user.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslClusterTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"broker\" password=\"broker-secret\" user_broker=\"broker-secret\" user_alice=\"alice-secret\";";

    private static Map<String, String> saslEverywhere() {
        return new HashMap<>(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
                "sasl.enabled.mechanisms", "PLAIN",
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "sasl.mechanism.controller.protocol", "PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config", JAAS,
                "listener.name.controller.plain.sasl.jaas.config", JAAS,
                "broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100"));
    }

    @Test
    void brokersSignInToTheControllerAndToEachOtherAndReplicate() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, saslEverywhere())) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3,
                    "three brokers registered through the SASL controller listener");
            Map<String, Object> client = clientConfig(cluster, "alice", "alice-secret");
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic("secured", 1, (short) 3))).all().get();
                await(() -> isr(admin).size() == 3, "every replica in sync, fetching over SASL");
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

    @Test
    void theMechanismNodesSignInWithMustBePlain() {
        Map<String, String> gssapi = saslEverywhere();
        gssapi.remove("sasl.mechanism.inter.broker.protocol");
        assertThatThrownBy(() -> MiniCluster.start(1, gssapi)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("sasl.mechanism.inter.broker.protocol");
    }

    private static List<Integer> isr(Admin admin) {
        try {
            TopicDescription description = admin.describeTopics(List.of("secured")).allTopicNames().get().get("secured");
            return description.partitions().get(0).isr().stream().map(node -> node.id()).toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    private static Map<String, Object> clientConfig(MiniCluster cluster, String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"" + user + "\" password=\"" + password + "\";");
        return config;
    }
}
