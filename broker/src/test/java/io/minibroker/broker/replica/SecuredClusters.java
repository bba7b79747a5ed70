package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.security.TestCertificates;
import io.minibroker.broker.server.ReadFromStart;
import io.micrometer.core.instrument.Gauge;
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

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tests of secured clusters share: the nodes' settings for TLS and SASL between them, clients' configs,
 * and a topic of three replicas that acks=all produces replicate to.
 */
final class SecuredClusters {

    static final TestCertificates CERTIFICATES = TestCertificates.get();
    /** The principal of the broker certificate, which every node presents to the others. */
    static final String BROKER_PRINCIPAL = "User:CN=localhost,OU=brokers,O=minibroker";
    /** The PLAIN users of every SASL listener: the nodes' own, and alice's. */
    static final String PLAIN_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"broker\" password=\"broker-secret\" user_broker=\"broker-secret\""
            + " user_alice=\"alice-secret\";";

    private SecuredClusters() {
    }

    /** Every listener SSL with client certificates required; brokers reach each other with theirs. */
    static Map<String, String> tlsEverywhere(String storeType) {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", storeType));
        settings.putAll(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SSL,CONTROLLER:SSL",
                "ssl.client.auth", "required"));
        settings.putAll(fastFollowing());
        return settings;
    }

    /** Every listener of {@code protocol} (SASL_PLAINTEXT or SASL_SSL), nodes signing in with PLAIN. */
    static Map<String, String> saslEverywhere(String protocol, String mechanisms) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:" + protocol + ",CONTROLLER:" + protocol,
                "sasl.enabled.mechanisms", mechanisms,
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "sasl.mechanism.controller.protocol", "PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config", PLAIN_JAAS,
                "listener.name.controller.plain.sasl.jaas.config", PLAIN_JAAS));
        settings.putAll(fastFollowing());
        return settings;
    }

    private static Map<String, String> fastFollowing() {
        return Map.of("broker.heartbeat.interval.ms", "100", "replica.fetch.wait.max.ms", "100");
    }

    /** A client's SSL settings with this identity's certificate. */
    static Map<String, Object> tlsClient(String storeType, String identity) {
        Map<String, Object> client = new HashMap<>(CERTIFICATES.clientSettings(storeType, identity));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        return client;
    }

    /** A client's SASL settings: PLAIN or SCRAM-SHA-256/512 as this user. */
    static Map<String, Object> saslClient(String protocol, String mechanism, String user, String password) {
        Map<String, Object> client = new HashMap<>();
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        client.put(SaslConfigs.SASL_MECHANISM, mechanism);
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        client.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + user + "\" password=\""
                + password + "\";");
        return client;
    }

    /** {@code client} with bootstrap.servers set: every node of the cluster. */
    static Map<String, Object> at(MiniCluster cluster, Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        return config;
    }

    /** Creates {@code topic} with one partition on all three nodes and waits until every replica is in sync. */
    static void createReplicatedTopic(Map<String, Object> admin, String topic) throws Exception {
        try (Admin client = Admin.create(admin)) {
            client.createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get();
            await(() -> isr(client, topic).size() == 3, "every replica of " + topic + " in sync");
        }
    }

    /**
     * Three nodes with {@code settings}: a topic of three replicas, ten records produced with acks=all by
     * {@code client}, and read back.
     */
    static void replicateAcksAll(Map<String, String> settings, Map<String, Object> client) throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3,
                    "three brokers registered through the controller listener");
            Map<String, Object> config = at(cluster, client);
            createReplicatedTopic(config, "secured");
            try (KafkaProducer<String, String> producer = producer(config)) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("secured", 0, null, "v" + i)).get();
                }
            }
            List<String> read = ReadFromStart.values(config, new TopicPartition("secured", 0), 10,
                    Duration.ofSeconds(20));
            assertThat(read).hasSize(10).startsWith("v0").endsWith("v9");
        }
    }

    /** A producer with acks=all that gives up on a send within ten seconds. */
    static KafkaProducer<String, String> producer(Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    static List<Integer> isr(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().get(0).isr().stream().map(node -> node.id()).toList();
        } catch (Exception e) {
            return List.of();
        }
    }

    static int leader(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().get(0).leader().id();
        } catch (Exception e) {
            return -1;
        }
    }

    /** A node's log end offset of partition 0 of {@code topic}, from its log gauge; -1 if it hosts none. */
    static long logEndOffset(MiniCluster cluster, int node, String topic) {
        Gauge gauge = cluster.node(node).meterRegistry().find("kafka.log.log.logendoffset").tag("topic", topic)
                .tag("partition", "0").gauge();
        return gauge == null ? -1 : (long) gauge.value();
    }

    /** {@code client} with bootstrap.servers set: this node alone. */
    static Map<String, Object> atNode(MiniCluster cluster, int node, Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT"));
        return config;
    }

    /** Whether the client signs in to this node: its first request, to the bootstrap node, is answered. */
    static boolean signsIn(MiniCluster cluster, int node, Map<String, Object> client) {
        Map<String, Object> config = atNode(cluster, node, client);
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (Admin admin = Admin.create(config)) {
            admin.listTopics().names().get(); // Metadata, which any signed-in user may send
            return true;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
