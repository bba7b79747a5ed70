package io.minibroker.broker.network;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.broker.security.TestCertificates;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.security.TestCertificates.MALLORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An SSL listener configured as a Kafka broker's is, key and trust stores in JKS, PKCS12 and PEM: kafka-clients
 * produce and consume over it (fetched records, sent from files on a plaintext connection, copied through TLS
 * here), a share consumer's too; with {@code ssl.client.auth=required} only a client with a trusted certificate gets in; a client that
 * never handshakes, or speaks plaintext to the TLS port, is closed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsListenerTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JKS", "PKCS12", "PEM"})
    void clientsProduceAndConsumeOverTls(String storeType) throws Exception {
        // PKCS12 is configured for the listener alone (listener.name.ssl.ssl.*), the others globally.
        broker = startSsl(CERTIFICATES.brokerSettings(storeType.equals("PKCS12") ? "listener.name.ssl." : "",
                storeType), Map.of());
        Map<String, Object> client = clientConfig(storeType, null);
        String large = "x".repeat(300_000); // a fetched batch larger than one TLS record, and than a copy chunk
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(withMaxRequest(client),
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>("secured", 0, null, "v" + i)).get();
            }
            producer.send(new ProducerRecord<>("secured", 0, null, large)).get();
        }
        List<String> values = ReadFromStart.values(client, new TopicPartition("secured", 0), 6,
                Duration.ofSeconds(30));
        assertThat(values).hasSize(6).startsWith("v0", "v1", "v2", "v3", "v4");
        assertThat(values.get(5)).isEqualTo(large);
    }

    /**
     * A share fetch's records, the acquired batches as a slice of the segment file, are copied through TLS as a
     * Fetch's are, a batch larger than a TLS record and than a copy chunk included.
     */
    @Test
    void aShareConsumerReceivesItsAcquiredBatchesOverTls() throws Exception {
        broker = startSsl(CERTIFICATES.brokerSettings("", "PKCS12"), Map.of());
        Map<String, Object> client = clientConfig("PKCS12", null);
        try (Admin admin = Admin.create(client)) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "g"),
                    List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
        String large = "x".repeat(300_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(withMaxRequest(client),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("shared", 0, null, "v0")).get();
            producer.send(new ProducerRecord<>("shared", 0, null, large)).get();
        }
        Map<String, Object> consumerConfig = new HashMap<>(client);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "g");
        List<String> values = new ArrayList<>();
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(consumerConfig,
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("shared"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < 2 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> values.add(record.value()));
            }
        }
        assertThat(values).containsExactly("v0", large);
    }

    @Test
    void withClientAuthRequiredOnlyATrustedCertificateGetsIn() throws Exception {
        broker = startSsl(CERTIFICATES.brokerSettings("", "PKCS12"), Map.of("ssl.client.auth", "required"));
        try (Admin admin = Admin.create(clientConfig("PKCS12", ALICE))) {
            assertThat(admin.describeCluster().nodes().get()).hasSize(1);
        }
        for (String stranger : new String[] {null, MALLORY}) {
            try (Admin admin = Admin.create(clientConfig("PKCS12", stranger))) {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get())
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SslAuthenticationException.class);
            }
        }
    }

    @Test
    void aClientThatNeverHandshakesIsClosedAfterTheTimeout() throws Exception {
        broker = startSsl(CERTIFICATES.brokerSettings("", "JKS"), Map.of("tls.handshake.timeout.ms", "200"));
        try (RawClient silent = new RawClient(broker.boundPort("SSL"))) {
            assertThat(silent.closedByBroker()).isTrue(); // well before the idle timeout of ten minutes
        }
    }

    @Test
    void aPlaintextKafkaClientOnTheTlsPortIsClosed() throws Exception {
        broker = startSsl(CERTIFICATES.brokerSettings("", "JKS"), Map.of());
        try (RawClient plaintext = new RawClient(broker.boundPort("SSL"))) {
            plaintext.send(RawClient.apiVersions((short) 3, 1));
            assertThat(plaintext.closedByBroker()).isTrue();
        }
    }

    @Test
    void anSslListenerWithoutAKeyStoreDoesNotStart() {
        assertThatThrownBy(() -> startSsl(Map.of(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("ssl.keystore.location");
    }

    @Test
    void aWrongKeyStorePasswordStopsTheStartNamingTheKey() {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("listener.name.ssl.", "JKS"));
        settings.put("listener.name.ssl.ssl.keystore.password", "wrong");
        assertThatThrownBy(() -> startSsl(settings, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listener.name.ssl.ssl.keystore.location")
                .hasMessageNotContaining("wrong");
    }

    private Broker startSsl(Map<String, String> tls, Map<String, String> more) throws Exception {
        Map<String, String> overrides = new HashMap<>(tls);
        overrides.putAll(more);
        overrides.put("listeners", "SSL://localhost:0");
        overrides.put("listener.security.protocol.map", "SSL:SSL");
        overrides.put("inter.broker.listener.name", "SSL");
        overrides.put("offsets.topic.replication.factor", "1");
        return TestBrokers.start(logDir, overrides);
    }

    private Map<String, Object> clientConfig(String storeType, String identity) {
        Map<String, Object> config = new HashMap<>(CERTIFICATES.clientSettings(storeType, identity));
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SSL"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        return config;
    }

    private static Map<String, Object> withMaxRequest(Map<String, Object> client) {
        Map<String, Object> producer = new HashMap<>(client);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_000_000);
        return producer;
    }
}
