package io.minibroker.broker.token;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedByAuthenticationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramSaslClientProvider;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Clients signing in with a delegation token, as kafka-clients do ({@code ScramLoginModule required username=<token
 * id> password=<HMAC in base64> tokenauth="true"}): they act as the token's owner, under the owner's ACLs, with
 * either SCRAM mechanism; they may not ask for tokens themselves; a token removed (expired by request, or by the
 * expiry check once past its time) signs nobody in.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelegationTokenScramTest {

    private static final String TOPIC = "tokens";

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aClientSignedInWithATokenActsAsItsOwnerUntilTheTokenIsGone() throws Exception {
        broker = TestBrokers.start(logDir, DelegationTokenApisTest.settings(true), clock);
        try (Admin admin = plainAdmin("admin"); Admin alice = plainAdmin("alice"); Admin bob = plainAdmin("bob")) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            List<AclBinding> acls = new ArrayList<>();
            for (AclOperation operation : List.of(AclOperation.WRITE, AclOperation.READ, AclOperation.DESCRIBE)) {
                acls.add(new AclBinding(new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                        new AccessControlEntry("User:alice", "*", operation, AclPermissionType.ALLOW)));
            }
            acls.add(new AclBinding(new ResourcePattern(ResourceType.GROUP, "g", PatternType.LITERAL),
                    new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW)));
            admin.createAcls(acls).all().get();

            DelegationToken alices = alice.createDelegationToken().delegationToken().get();
            produce(tokenClient("SCRAM-SHA-256", alices.tokenInfo().tokenId(), alices.hmacAsBase64String()), "one");
            produce(tokenClient("SCRAM-SHA-512", alices.tokenInfo().tokenId(), alices.hmacAsBase64String()), "two");
            assertThat(consume(tokenClient("SCRAM-SHA-512", alices.tokenInfo().tokenId(),
                    alices.hmacAsBase64String()), 2)).containsExactly("one", "two");

            DelegationToken bobs = bob.createDelegationToken().delegationToken().get();
            assertThatThrownBy(() -> produce(tokenClient("SCRAM-SHA-256", bobs.tokenInfo().tokenId(),
                    bobs.hmacAsBase64String()), "x")).as("bob's token acts as bob, who may not write")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);

            assertThatThrownBy(() -> produce(tokenClient("SCRAM-SHA-256", alices.tokenInfo().tokenId(),
                    bobs.hmacAsBase64String()), "x")).hasCauseInstanceOf(SaslAuthenticationException.class);
            assertThatThrownBy(() -> produce(tokenClient("SCRAM-SHA-256", "no-such-token",
                    alices.hmacAsBase64String()), "x")).hasCauseInstanceOf(SaslAuthenticationException.class);
            assertThatThrownBy(() -> produce(scramClient("SCRAM-SHA-256", alices.tokenInfo().tokenId(),
                    alices.hmacAsBase64String(), ""), "x")).as("without tokenauth the id is a user name")
                    .hasCauseInstanceOf(SaslAuthenticationException.class);

            try (Admin withToken = Admin.create(tokenClient("SCRAM-SHA-256", alices.tokenInfo().tokenId(),
                    alices.hmacAsBase64String()))) {
                assertThatThrownBy(() -> withToken.createDelegationToken().delegationToken().get())
                        .as("a token begets no tokens").isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(UnsupportedByAuthenticationException.class);
            }

            bob.expireDelegationToken(bobs.hmac(), new ExpireDelegationTokenOptions().expiryTimePeriodMs(-1))
                    .expiryTimestamp().get();
            assertThatThrownBy(() -> produce(tokenClient("SCRAM-SHA-256", bobs.tokenInfo().tokenId(),
                    bobs.hmacAsBase64String()), "x")).as("expired at once")
                    .hasCauseInstanceOf(SaslAuthenticationException.class);

            clock.advance(DelegationTokenApisTest.EXPIRY_TIME_MS + DelegationTokenApisTest.CHECK_INTERVAL_MS);
            assertThatThrownBy(() -> produce(tokenClient("SCRAM-SHA-256", alices.tokenInfo().tokenId(),
                    alices.hmacAsBase64String()), "x")).as("removed by the expiry check")
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    /**
     * As Kafka's SaslServerAuthenticator: a session signed in with a token lasts until the token's expiry (the
     * credential's lifetime) even without {@code connections.max.reauth.ms}, and is told so in SaslAuthenticate; a
     * request after it closes the connection.
     */
    @Test
    void aSessionSignedInWithATokenLastsUntilTheTokensExpiry() throws Exception {
        broker = TestBrokers.start(logDir, DelegationTokenApisTest.settings(true), clock);
        DelegationToken token;
        try (Admin alice = plainAdmin("alice")) {
            token = alice.createDelegationToken().delegationToken().get();
        }
        clock.advance(1_000);
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            long lifetimeMs = signInWithToken(client, token);
            assertThat(lifetimeMs).isEqualTo(DelegationTokenApisTest.EXPIRY_TIME_MS - 1_000);
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 9, ApiKey.METADATA.request().newMessage()));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).correlationId()).isEqualTo(9);

            clock.advance(lifetimeMs + 1);
            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 10, ApiKey.METADATA.request().newMessage()));
            assertThat(client.closedByBroker()).as("a request after the token's expiry").isTrue();
        }
    }

    /** kafka-clients' own SCRAM client over raw requests, with {@code tokenauth=true}: the session's lifetime. */
    private static long signInWithToken(RawClient client, DelegationToken token) throws Exception {
        client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 1,
                ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "SCRAM-SHA-256")));
        assertThat(client.receive(ApiKey.SASL_HANDSHAKE, (short) 1).body().getInt16("ErrorCode")).isZero();
        ScramSaslClientProvider.initialize();
        SaslClient scram = Sasl.createSaslClient(new String[]{"SCRAM-SHA-256"}, null, "kafka", "localhost", Map.of(),
                callbacks -> {
                    for (Callback callback : callbacks) {
                        if (callback instanceof NameCallback name) {
                            name.setName(token.tokenInfo().tokenId());
                        } else if (callback instanceof PasswordCallback password) {
                            password.setPassword(token.hmacAsBase64String().toCharArray());
                        } else if (callback instanceof ScramExtensionsCallback extensions) {
                            extensions.extensions(Map.of("tokenauth", "true"));
                        }
                    }
                });
        byte[] clientToken = scram.evaluateChallenge(new byte[0]);
        Struct answer = null;
        for (int round = 0; !scram.isComplete(); round++) {
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 2 + round,
                    ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", clientToken)));
            answer = client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body();
            assertThat(answer.getInt16("ErrorCode")).isZero();
            clientToken = scram.evaluateChallenge(answer.getBytes("AuthBytes"));
        }
        return answer.getInt64("SessionLifetimeMs");
    }

    private Map<String, Object> tokenClient(String mechanism, String tokenId, String hmac) {
        return scramClient(mechanism, tokenId, hmac, " tokenauth=\"true\"");
    }

    private Map<String, Object> scramClient(String mechanism, String user, String password, String extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"" + user + "\" password=\"" + password + "\"" + extra + ";");
        return config;
    }

    private Admin plainAdmin(String user) {
        return DelegationTokenApisTest.plainAdmin(broker, user);
    }

    private static void produce(Map<String, Object> config, String value) throws Exception {
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, value)).get();
        } catch (SaslAuthenticationException e) { // thrown by send itself when the metadata fetch fails to sign in
            throw new ExecutionException(e);
        }
    }

    private static List<String> consume(Map<String, Object> config, int count) {
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "g");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Answered at once: on the broker's still clock a parked fetch never times out, so the fetch that closes
        // the consumer's fetch session would hold its close for the whole request timeout.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "0");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
