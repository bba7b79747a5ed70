package io.minibroker.broker.network;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.ReadFromStart;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A SASL_PLAINTEXT listener with PLAIN, configured as a Kafka broker is: kafka-clients with the right password
 * produce and consume; a wrong password, a refused mechanism or any request before authenticating end the
 * connection as Kafka's authenticator ends it; a PLAINTEXT listener beside it still answers without any.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SaslPlainListenerTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\" user_alice=\"alice-secret\";";

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void clientsWithTheRightPasswordProduceAndConsume() throws Exception {
        broker = startSasl();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(clientConfig("alice", "alice-secret"),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("secured", "k", "v1")).get();
            producer.send(new ProducerRecord<>("secured", "k", "v2")).get();
        }
        List<String> values = ReadFromStart.values(clientConfig("alice", "alice-secret"),
                new TopicPartition("secured", 0), 2, Duration.ofSeconds(20));
        assertThat(values).containsExactly("v1", "v2");
    }

    @Test
    void anEmbeddedBrokerWithOnlyASaslListenerNamesItForClients() throws Exception {
        Map<String, String> settings = new HashMap<>(saslSettings(true));
        settings.put("listeners", "SASL_PLAINTEXT://localhost:0");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(settings)) {
            assertThat(kafka.bootstrapServers()).isEqualTo("localhost:" + kafka.broker().boundPort("SASL_PLAINTEXT"));
        }
    }

    @Test
    void aWrongPasswordFailsAuthenticationAtTheClient() throws Exception {
        broker = startSasl();
        try (Admin admin = Admin.create(clientConfig("alice", "not-her-password"))) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SaslAuthenticationException.class)
                    .cause().hasMessageContaining("Invalid username or password");
        }
    }

    @Test
    void onlyApiVersionsAndTheSaslStepsAreServedBeforeAuthenticating() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.apiVersions((short) 3, 1));
            assertThat(client.receive(ApiKey.API_VERSIONS, (short) 3).correlationId()).isEqualTo(1);
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 2,
                    ApiKey.METADATA.request().newMessage()));
            assertThat(client.closedByBroker()).as("a Metadata request before authenticating").isTrue();
        }
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 3,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "SCRAM-SHA-512")));
            Struct answer = client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body();
            assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM.code());
            assertThat(answer.<String>getList("Mechanisms")).containsExactly("PLAIN");
            assertThat(client.closedByBroker()).as("after a refused mechanism").isTrue();
        }
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            handshake(client);
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 5, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "alice-secret"))));
            assertThat(client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 6, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "alice-secret"))));
            assertThat(client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body().getInt16("ErrorCode"))
                    .as("once authenticated, as Kafka answers it").isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 8,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                    .as("no re-authentication without connections.max.reauth.ms, as Kafka 4.3's KafkaChannel")
                    .isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 7, ApiKey.METADATA.request().newMessage()));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).correlationId()).isEqualTo(7);
        }
    }

    @Test
    void aTooNewApiVersionsMayBeRetriedButAnAnsweredOneMayNotBeRepeated() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.withVersion(RawClient.apiVersions((short) 3, 1), (short) 99));
            assertThat(new ApiVersionsResponseView(client.receive(ApiKey.API_VERSIONS, (short) 0).body()).errorCode())
                    .isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(client.askApiVersions((short) 3, 2).errorCode())
                    .as("the retry at a version both know").isEqualTo(Errors.NONE.code());
            client.send(RawClient.apiVersions((short) 3, 3));
            assertThat(client.closedByBroker()).as("a second answered ApiVersions, as Kafka's authenticator").isTrue();
        }
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.apiVersions((short) 3, 1));
            client.receive(ApiKey.API_VERSIONS, (short) 3);
            handshake(client);
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 5, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "alice-secret"))));
            assertThat(client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            client.send(RawClient.apiVersions((short) 3, 6));
            assertThat(client.receive(ApiKey.API_VERSIONS, (short) 3).correlationId())
                    .as("once authenticated ApiVersions is served as on any connection").isEqualTo(6);
        }
    }

    @Test
    void beforeAuthenticatingAFrameMayNotExceedSaslServerMaxReceiveSize() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(java.nio.ByteBuffer.allocate(4).putInt(524_289).array()); // one byte over 512 KiB
            assertThat(client.closedByBroker()).as("refused before its body is buffered").isTrue();
        }
        String big = "x".repeat(700_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(clientConfig("alice", "alice-secret"),
                new StringSerializer(), new StringSerializer())) {
            assertThat(producer.send(new ProducerRecord<>("big", big)).get().serializedValueSize())
                    .as("once authenticated, socket.request.max.bytes is the limit").isEqualTo(700_000);
        }
    }

    /** A client past the PLAIN handshake, on a broker holding a failed authentication's close 600 ms. */
    private RawClient handshakenWithFailuresDelayed600Ms() throws Exception {
        Map<String, String> settings = new HashMap<>(saslSettings(true));
        settings.put("connection.failed.authentication.delay.ms", "600");
        broker = TestBrokers.start(logDir, settings);
        RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"));
        handshake(client);
        return client;
    }

    @Test
    void theAnswerToAFailedAuthenticationIsHeldForTheConfiguredDelay() throws Exception {
        try (RawClient client = handshakenWithFailuresDelayed600Ms()) {
            long sent = System.nanoTime();
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 5, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "wrong"))));
            Struct answer = client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body();
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

            assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(waitedMs).as("held, not answered at once").isGreaterThanOrEqualTo(500);
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    /**
     * After the handshake Kafka's authenticator fails a request out of turn (IllegalSaslStateException), so the
     * connection closes after the failed-authentication delay (before it, Kafka 4.3 closes at once: see above).
     */
    @Test
    void aRequestOutOfTurnAfterTheHandshakeClosesTheConnectionAfterTheFailedAuthenticationDelay() throws Exception {
        try (RawClient client = handshakenWithFailuresDelayed600Ms()) {
            long sent = System.nanoTime();
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 2, ApiKey.METADATA.request().newMessage()));

            assertThat(client.closedByBroker()).as("closed without an answer").isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent)).as("held, not closed at once")
                    .isGreaterThanOrEqualTo(500);
        }
    }

    @Test
    void nothingPipelinedBehindAFailedAuthenticationIsServed() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            handshake(client);
            java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
            burst.write(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 5, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "wrong"))));
            burst.write(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 6, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", plainToken("alice", "alice-secret"))));
            client.send(burst.toByteArray());

            Struct answer = client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body();
            assertThat(answer.getInt16("ErrorCode")).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(answer.getString("ErrorMessage")).isEqualTo("Authentication failed: Invalid username or password");
            assertThat(client.closedByBroker()).as("no second try on the same connection").isTrue();
        }
    }

    @Test
    void afterAVersion0HandshakeTheBareTokenIsAnsweredByAnEmptyFrame() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 0, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 0).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            client.send(sizePrefixed(plainToken("alice", "alice-secret")));
            assertThat(client.receiveFrame()).isEmpty();
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 2, ApiKey.METADATA.request().newMessage()));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).correlationId()).isEqualTo(2);
        }
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 0, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            client.receive(ApiKey.SASL_HANDSHAKE, (short) 0);
            client.send(sizePrefixed(plainToken("alice", "wrong")));
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    @Test
    void aPlaintextListenerBesideItAnswersWithoutAuthenticationAndRefusesTheSaslSteps() throws Exception {
        broker = startSasl();
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.ILLEGAL_SASL_STATE.code());
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 2, ApiKey.METADATA.request().newMessage()));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).correlationId()).isEqualTo(2);
        }
    }

    @Test
    void theUsersMayComeFromAJaasFileAsForKafka() throws Exception {
        Path jaas = Files.writeString(logDir.resolveSibling(logDir.getFileName() + "-jaas.conf"),
                "KafkaServer {\n  " + JAAS + "\n};\n");
        String previous = System.setProperty("java.security.auth.login.config", jaas.toString());
        try {
            broker = TestBrokers.start(logDir, saslSettings(false));
        } finally {
            restore(previous);
            Files.delete(jaas);
        }
        try (Admin admin = Admin.create(clientConfig("admin", "admin-secret"))) {
            assertThat(admin.describeCluster().clusterId().get(20, TimeUnit.SECONDS)).isNotEmpty();
        }
    }

    @Test
    void whatIsNotOfferedStopsTheBrokerAtStart() {
        Map<String, String> noUsers = saslSettings(false);
        assertThatThrownBy(() -> TestBrokers.start(logDir, noUsers)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config");
        Map<String, String> gssapi = new HashMap<>(saslSettings(true));
        gssapi.remove("sasl.enabled.mechanisms");
        assertThatThrownBy(() -> TestBrokers.start(logDir, gssapi)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("sasl.enabled.mechanisms");
        assertThatThrownBy(() -> TestBrokers.start(logDir, Map.of("listeners", "SSL://localhost:0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("needs a key store"); // TLS: tls.md
        Map<String, String> unmapped = new HashMap<>(saslSettings(true));
        unmapped.put("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT"); // PLAINTEXT left out
        assertThatThrownBy(() -> TestBrokers.start(logDir, unmapped)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("No security protocol defined for listener PLAINTEXT");
    }

    private Broker startSasl() throws Exception {
        return TestBrokers.start(logDir, saslSettings(true));
    }

    private static Map<String, String> saslSettings(boolean withJaasProperty) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN"));
        if (withJaasProperty) {
            settings.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS);
        }
        return settings;
    }

    private Map<String, Object> clientConfig(String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"" + user + "\" password=\"" + password + "\";");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        return config;
    }

    private static void handshake(RawClient client) throws Exception {
        client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 4,
                ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
        assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
    }

    private static byte[] plainToken(String user, String password) {
        return ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] sizePrefixed(byte[] token) {
        return java.nio.ByteBuffer.allocate(4 + token.length).putInt(token.length).put(token).array();
    }

    private static void restore(String previous) {
        if (previous == null) {
            System.clearProperty("java.security.auth.login.config");
        } else {
            System.setProperty("java.security.auth.login.config", previous);
        }
    }
}
