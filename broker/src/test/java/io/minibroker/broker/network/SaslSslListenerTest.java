package io.minibroker.broker.network;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.security.SslEngineFactory;
import io.minibroker.broker.security.TestCertificates;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import javax.net.ssl.SSLSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A SASL_SSL listener: the SASL session of a SASL_PLAINTEXT listener inside TLS. kafka-clients sign in with PLAIN
 * (users from the listener's JAAS key) and with SCRAM (credentials an admin set over the same listener), produce
 * and consume; a wrong password is refused as on SASL_PLAINTEXT.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SaslSslListenerTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " user_admin=\"admin-secret\";";

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void plainAndScramUsersSignInOverTls() throws Exception {
        broker = startSaslSsl();
        try (Admin admin = Admin.create(client("PLAIN", "admin", "admin-secret"))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("carol",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "carol-secret"))).all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                client("SCRAM-SHA-256", "carol", "carol-secret"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("secured", 0, null, "v1")).get();
            producer.send(new ProducerRecord<>("secured", 0, null, "v2")).get();
        }
        assertThat(ReadFromStart.values(client("PLAIN", "admin", "admin-secret"), new TopicPartition("secured", 0), 2,
                Duration.ofSeconds(20))).containsExactly("v1", "v2");
        try (Admin wrong = Admin.create(client("SCRAM-SHA-256", "carol", "wrong"))) {
            assertThatThrownBy(() -> wrong.describeCluster().nodes().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    /** Before authenticating, a frame above sasl.server.max.receive.size closes the connection, as on SASL_PLAINTEXT. */
    @Test
    void anOversizedFrameBeforeAuthenticatingIsRefusedInsideTls() throws Exception {
        broker = startSaslSsl();
        Map<String, String> trust = new HashMap<>();
        CERTIFICATES.clientSettings("JKS", null).forEach((key, value) -> trust.put(key, value.toString()));
        SslEngineFactory tls = SslEngineFactory.of(BrokerConfig.of(trust).sslSettings("SASL_SSL"), false);
        int port = broker.boundPort("SASL_SSL");
        try (SSLSocket socket = tls.clientSocket(new Socket("localhost", port), "localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            socket.getOutputStream().write(ByteBuffer.allocate(4).putInt(524_289).array());
            socket.getOutputStream().flush();
            assertThat(socket.getInputStream().read()).as("closed by the broker").isEqualTo(-1);
        }
    }

    private Broker startSaslSsl() throws Exception {
        Map<String, String> overrides = new HashMap<>(CERTIFICATES.brokerSettings("listener.name.sasl_ssl.", "JKS"));
        overrides.putAll(Map.of(
                "listeners", "SASL_SSL://localhost:0",
                "listener.security.protocol.map", "SASL_SSL:SASL_SSL",
                "inter.broker.listener.name", "SASL_SSL",
                "sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256",
                "listener.name.sasl_ssl.plain.sasl.jaas.config", JAAS,
                "offsets.topic.replication.factor", "1"));
        return TestBrokers.start(logDir, overrides);
    }

    private Map<String, Object> client(String mechanism, String user, String password) {
        Map<String, Object> config = new HashMap<>(CERTIFICATES.clientSettings("JKS", null));
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_SSL"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        config.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + user + "\" password=\""
                + password + "\";");
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        return config;
    }
}
