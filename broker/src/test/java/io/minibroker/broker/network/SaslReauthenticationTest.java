package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Re-authentication (KIP-368) on a SASL_PLAINTEXT listener, as Kafka's broker does it: with
 * {@code connections.max.reauth.ms} set for the mechanism, SaslAuthenticate tells the client its session's lifetime;
 * a SaslHandshake on the authenticated connection before the end re-authenticates it (same user and mechanism) and
 * starts a new session; a request after the end closes the connection. kafka-clients re-authenticate on their own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SaslReauthenticationTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " user_alice=\"alice-secret\" user_bob=\"bob-secret\";";

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
    void aSessionLastsItsLifetimeAndAReauthenticationOnTheConnectionStartsANewOne() throws Exception {
        ManualClock clock = new ManualClock();
        broker = TestBrokers.start(logDir, settings("60000"), clock);
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            assertThat(signIn(client, "alice", 1).getInt64("SessionLifetimeMs"))
                    .as("the mechanism's own key wins over the broker's").isEqualTo(60_000);
            assertThat(answersMetadata(client, 3)).isTrue();

            clock.advance(50_000);
            Struct renewed = signIn(client, "alice", 4);
            assertThat(renewed.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(renewed.getInt64("SessionLifetimeMs")).isEqualTo(60_000);
            clock.advance(59_000);
            assertThat(answersMetadata(client, 6)).as("109 s in: the new session's 59th second").isTrue();

            clock.advance(1_001);
            client.send(metadata(7));
            assertThat(client.closedByBroker()).as("a request past the session's end").isTrue();
        }
    }

    @Test
    void aReauthenticationAsAnotherUserFailsAndClosesTheConnection() throws Exception {
        broker = TestBrokers.start(logDir, settings("60000"), new ManualClock());
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            signIn(client, "alice", 1);
            Struct refused = signIn(client, "bob", 3);
            assertThat(refused.getInt16("ErrorCode")).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(refused.getString("ErrorMessage"))
                    .isEqualTo("Cannot change principals during re-authentication from User.alice: User.bob");
            assertThat(client.closedByBroker()).isTrue();
        }
    }

    /**
     * As Kafka 4.3.1's SaslServerAuthenticator (REAUTH_BAD_MECHANISM): a handshake naming another enabled mechanism
     * is answered NONE, and the next frame closes the connection with no answer, not even an error.
     */
    @Test
    void aReauthenticationWithAnotherMechanismClosesTheConnectionAtTheNextFrameUnanswered() throws Exception {
        Map<String, String> settings = settings("60000");
        settings.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256");
        broker = TestBrokers.start(logDir, settings, new ManualClock());
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            signIn(client, "alice", 1);
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 3,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "SCRAM-SHA-256")));
            assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 4,
                    ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", new byte[0])));
            assertThat(client.closedByBroker()).as("closed with nothing written").isTrue();
        }
    }

    @Test
    void withoutALifetimeTheSessionNeverEnds() throws Exception {
        ManualClock clock = new ManualClock();
        broker = TestBrokers.start(logDir, settings("0"), clock);
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            assertThat(signIn(client, "alice", 1).getInt64("SessionLifetimeMs")).isZero();
            clock.advance(TimeUnit.DAYS.toMillis(30));
            assertThat(answersMetadata(client, 3)).isTrue();
        }
    }

    /**
     * Kafka's selector metrics of the listener: successful-authentication-total counts each connection's first
     * authentication, successful-authentication-no-reauth-total the client that authenticated with SaslAuthenticate v0
     * only, successful-reauthentication-total and the latency from the re-authentication's SaslHandshake to its
     * success (max and avg over the metrics' 2 windows of 30 s, NaN after), failed-reauthentication-total a
     * re-authentication as another user, which failed-authentication-total does not count.
     */
    @Test
    void theListenersReauthenticationMetricsCountWhatItsConnectionsDid() throws Exception {
        ManualClock clock = new ManualClock();
        broker = TestBrokers.start(logDir, settings("60000"), clock);
        try (RawClient alice = new RawClient(broker.boundPort("SASL_PLAINTEXT"));
             RawClient old = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            signIn(alice, "alice", 1);
            assertThat(count("successful.authentication.no.reauth")).as("a SaslAuthenticate v2 client").isZero();
            assertThat(signIn(old, "bob", 1, (short) 0, clock, 0).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(count("successful.authentication.no.reauth")).as("a SaslAuthenticate v0 client").isOne();
            assertThat(count("successful.authentication")).as("both connections").isEqualTo(2);
            assertThat(gauge("reauthentication.latency.max")).as("none yet").isNaN();

            clock.advance(50_000);
            assertThat(signIn(alice, "alice", 3, (short) 2, clock, 25).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(count("successful.reauthentication")).isOne();
            assertThat(gauge("reauthentication.latency.max")).isEqualTo(25.0);
            assertThat(gauge("reauthentication.latency.avg")).isEqualTo(25.0);
            assertThat(count("failed.reauthentication")).isZero();

            clock.advance(1_000);
            assertThat(signIn(alice, "bob", 5, (short) 2, clock, 0).getInt16("ErrorCode"))
                    .isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(count("failed.reauthentication")).isOne();
            assertThat(count("successful.reauthentication")).isOne();
            assertThat(count("successful.authentication.no.reauth")).as("first authentications only").isOne();
            assertThat(count("successful.authentication")).as("first authentications only").isEqualTo(2);
            assertThat(count("failed.authentication")).as("a re-authentication's failure is not counted").isZero();

            clock.advance(60_000);
            assertThat(gauge("reauthentication.latency.avg")).as("out of both windows").isNaN();
        }
    }

    /**
     * Kafka 4.3.1's SaslServerAuthenticator reads a re-authentication's frames after its SaslHandshake itself, bounded
     * by {@code sasl.server.max.receive.size} ("invalid receive size"), and its selector counts the failure in
     * failed-reauthentication-total, the connection having authenticated before; failed-authentication-total not.
     */
    @Test
    void aFrameOverTheSaslLimitDuringAReauthenticationFailsIt() throws Exception {
        ManualClock clock = new ManualClock();
        broker = TestBrokers.start(logDir, settings("60000"), clock);
        try (RawClient alice = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            signIn(alice, "alice", 1);
            clock.advance(50_000);
            alice.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 3,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            assertThat(alice.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            alice.send(new byte[] {0, 0x10, 0, 0}); // a frame of 1 MiB, above the 512 KiB
            assertThat(alice.closedByBroker()).isTrue();
        }
        assertThat(count("failed.reauthentication")).isOne();
        assertThat(count("failed.authentication")).isZero();
    }

    /**
     * failed-authentication-total counts a connection whose first authentication failed, as Kafka's selector counts
     * the AuthenticationException of its channel: a wrong password, a request out of turn after the handshake
     * (IllegalSaslStateException), a frame larger than {@code sasl.server.max.receive.size} before authenticating
     * (Kafka's "invalid receive size"); not a second ApiVersions before the handshake, which Kafka's authenticator
     * takes for an invalid request. A PLAINTEXT listener counts nothing.
     */
    @Test
    void theListenersFailedAuthenticationsAreCountedOncePerConnection() throws Exception {
        broker = TestBrokers.start(logDir, settings("60000"));
        try (RawClient mallory = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            byte[] token = "\u0000mallory\u0000guess".getBytes(StandardCharsets.UTF_8);
            mallory.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            mallory.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 2,
                    ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", token)));
            mallory.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 3,
                    ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", token)));
            mallory.receive(ApiKey.SASL_HANDSHAKE, (short) 1);
            assertThat(mallory.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.SASL_AUTHENTICATION_FAILED.code());
            assertThat(mallory.closedByBroker()).isTrue();
        }
        assertThat(count("failed.authentication")).as("the wrong password, not the request behind it").isOne();
        try (RawClient outOfTurn = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            outOfTurn.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            outOfTurn.send(metadata(2));
            outOfTurn.receive(ApiKey.SASL_HANDSHAKE, (short) 1);
            assertThat(outOfTurn.closedByBroker()).isTrue();
        }
        assertThat(count("failed.authentication")).isEqualTo(2);
        try (RawClient huge = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            huge.send(new byte[] {0, 0x10, 0, 0}); // a frame of 1 MiB, above the 512 KiB before authenticating
            assertThat(huge.closedByBroker()).isTrue();
        }
        assertThat(count("failed.authentication")).isEqualTo(3);
        try (RawClient twice = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            twice.send(RawClient.apiVersions((short) 3, 1));
            twice.receive(ApiKey.API_VERSIONS, (short) 3);
            twice.send(RawClient.apiVersions((short) 3, 2));
            assertThat(twice.closedByBroker()).isTrue();
        }
        assertThat(count("failed.authentication")).as("an invalid request, not a failed authentication").isEqualTo(3);
        assertThat(count("successful.authentication")).isZero();

        try (RawClient plaintext = new RawClient(broker.boundPort("PLAINTEXT"))) {
            plaintext.askApiVersions((short) 3, 1);
        }
        assertThat(broker.meterRegistry().get("kafka.server.socket.server.metrics.successful.authentication")
                .tag("listener", "PLAINTEXT").counter().count())
                .as("Kafka's PLAINTEXT channel is ready from the start: never counted").isZero();
    }

    private double count(String name) {
        return broker.meterRegistry().get("kafka.server.socket.server.metrics." + name)
                .tag("listener", "SASL_PLAINTEXT").counter().count();
    }

    private double gauge(String name) {
        return broker.meterRegistry().get("kafka.server.socket.server.metrics." + name)
                .tag("listener", "SASL_PLAINTEXT").gauge().value();
    }

    /** kafka-clients re-authenticate at 85-95% of the lifetime the broker told them, on the same connection. */
    @Test
    void aKafkaClientsProducerReauthenticatesAndKeepsProducing() throws Exception {
        broker = TestBrokers.start(logDir, settings("3000"));
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"alice\" password=\"alice-secret\";");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            await(() -> sent(producer) && metric(producer, "successful-reauthentication-total") >= 2,
                    "two re-authentications, each after a produce");
            assertThat(metric(producer, "failed-reauthentication-total")).isZero();
            assertThat(sent(producer)).isTrue();
        }
    }

    private static Map<String, String> settings(String mechanismMaxReauthMs) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS,
                "connections.max.reauth.ms", "5000",
                "listener.name.sasl_plaintext.plain.connections.max.reauth.ms", mechanismMaxReauthMs));
        return settings;
    }

    /** A SaslHandshake v1 and a SaslAuthenticate v2 with PLAIN's token: the SaslAuthenticate answer. */
    private static Struct signIn(RawClient client, String user, int correlationId) throws Exception {
        return signIn(client, user, correlationId, (short) 2, null, 0);
    }

    /**
     * A SaslHandshake v1 and, {@code thinkMs} later on {@code clock} (none if null), a SaslAuthenticate of this
     * version with PLAIN's token: the SaslAuthenticate answer.
     */
    private static Struct signIn(RawClient client, String user, int correlationId, short version, ManualClock clock,
                                 long thinkMs) throws Exception {
        client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, correlationId,
                ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
        assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
        if (clock != null) {
            clock.advance(thinkMs);
        }
        byte[] token = ("\u0000" + user + "\u0000" + user + "-secret").getBytes(StandardCharsets.UTF_8);
        client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, version, correlationId + 1,
                ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", token)));
        return client.receive(ApiKey.SASL_AUTHENTICATE, version).body();
    }

    private static byte[] metadata(int correlationId) {
        return RawClient.request(ApiKey.METADATA, (short) 12, correlationId, ApiKey.METADATA.request().newMessage());
    }

    private static boolean answersMetadata(RawClient client, int correlationId) throws Exception {
        client.send(metadata(correlationId));
        return client.receive(ApiKey.METADATA, (short) 12).correlationId() == correlationId;
    }

    private static boolean sent(KafkaProducer<String, String> producer) {
        try {
            producer.send(new ProducerRecord<>("reauthenticated", "v")).get();
            return true;
        } catch (ExecutionException e) {
            throw new AssertionError("a produce failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static double metric(KafkaProducer<String, String> producer, String name) {
        return producer.metrics().entrySet().stream()
                .filter(entry -> entry.getKey().name().equals(name) && entry.getKey().group().equals("producer-metrics"))
                .map(Map.Entry::getValue).map(Metric::metricValue).mapToDouble(value -> ((Number) value).doubleValue())
                .findFirst().orElse(-1);
    }
}
