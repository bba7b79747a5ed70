package io.minibroker.broker.network;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.DuplicateResourceException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnacceptableCredentialException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SCRAM-SHA-256 and SCRAM-SHA-512 on a single node, as kafka-clients use them: credentials set and removed with
 * Admin.alterUserScramCredentials (what kafka-configs --entity-type users sends) over a PLAINTEXT listener, then
 * producers authenticating with them on the SASL_PLAINTEXT one; kept across a restart.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SaslScramTest {

    private static final Map<String, String> SETTINGS = Map.of(
            "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
            "sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512");

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
    void usersAuthenticateWithTheCredentialsAdminSetAndNotOnceTheyAreDeleted() throws Exception {
        broker = TestBrokers.start(logDir, SETTINGS);
        try (Admin admin = plaintextAdmin()) {
            admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192),
                            "carol-secret"),
                    new UserScramCredentialUpsertion("dave", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                            "dave-secret"))).all().get();

            assertThat(produce("SCRAM-SHA-256", "carol", "carol-secret")).isTrue();
            assertThat(produce("SCRAM-SHA-512", "dave", "dave-secret")).isTrue();
            assertThat(produce("SCRAM-SHA-256", "carol", "wrong")).isFalse();
            assertThat(produce("SCRAM-SHA-512", "carol", "carol-secret")).as("carol has no SHA-512 credential").isFalse();
            assertThat(produce("SCRAM-SHA-256", "nobody", "x")).isFalse();

            UserScramCredentialsDescription carol = admin.describeUserScramCredentials(List.of("carol"))
                    .description("carol").get();
            assertThat(carol.credentialInfos()).singleElement().satisfies(info -> {
                assertThat(info.mechanism()).isEqualTo(ScramMechanism.SCRAM_SHA_256);
                assertThat(info.iterations()).isEqualTo(8192);
            });
            assertThat(admin.describeUserScramCredentials().users().get()).containsExactlyInAnyOrder("carol", "dave");
            assertThat(admin.describeClientQuotas(org.apache.kafka.common.quota.ClientQuotaFilter.all()).entities().get())
                    .as("kafka-configs asks for a user's quotas before its credentials: there are none").isEmpty();
            assertThatThrownBy(() -> admin.describeUserScramCredentials(List.of("nobody")).description("nobody").get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ResourceNotFoundException.class);
            assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("erin",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 1000), "pw"))).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnacceptableCredentialException.class);
            assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("erin",
                    ScramMechanism.SCRAM_SHA_256))).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ResourceNotFoundException.class);

            // A user named twice in one request, even for two mechanisms, is refused, as Kafka 4.3.1 refuses it.
            assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("frank", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                            "frank-secret"),
                    new UserScramCredentialUpsertion("frank", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                            "frank-secret"))).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(DuplicateResourceException.class);
            assertThat(produce("SCRAM-SHA-256", "frank", "frank-secret")).as("nothing of frank's was set").isFalse();
            // Unless the user's first alteration is refused: then its refusal is the user's answer (Kafka's
            // controller looks no further), a deletion's before an upsertion's.
            assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("gina", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                            "gina-secret"),
                    new UserScramCredentialDeletion("gina", ScramMechanism.SCRAM_SHA_512))).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ResourceNotFoundException.class);
            assertThatThrownBy(() -> admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("gina", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 1000),
                            "gina-secret"),
                    new UserScramCredentialUpsertion("gina", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                            "gina-secret"))).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnacceptableCredentialException.class);

            admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("carol",
                    ScramMechanism.SCRAM_SHA_256))).all().get();
            assertThat(produce("SCRAM-SHA-256", "carol", "carol-secret")).as("deleted").isFalse();
        }

        broker.close();
        broker = TestBrokers.start(logDir, SETTINGS);
        assertThat(produce("SCRAM-SHA-512", "dave", "dave-secret")).as("kept across a restart").isTrue();
    }

    @Test
    void aCredentialThatCannotBeMadeFailsItsUserOnlyAndTheConnectionStays() throws Exception {
        broker = TestBrokers.start(logDir, SETTINGS);
        Struct request = ApiKey.ALTER_USER_SCRAM_CREDENTIALS.request().newMessage();
        request.addElement("Upsertions").set("Name", "empty").set("Mechanism", (byte) 1).set("Iterations", 4096)
                .set("Salt", new byte[] {1, 2, 3}).set("SaltedPassword", new byte[0]);
        request.addElement("Upsertions").set("Name", "fine").set("Mechanism", (byte) 1).set("Iterations", 4096)
                .set("Salt", new byte[] {1, 2, 3}).set("SaltedPassword", new byte[32]);
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, (short) 0, 1, request));
            List<Struct> results = client.receive(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, (short) 0).body()
                    .getStructs("Results");
            assertThat(results).extracting(r -> r.getString("User") + ":" + r.getInt16("ErrorCode"))
                    .containsExactlyInAnyOrder("empty:" + Errors.UNKNOWN_SERVER_ERROR.code(), "fine:0");
            assertThat(results).filteredOn(r -> r.getString("User").equals("empty")).singleElement()
                    .satisfies(r -> assertThat(r.getString("ErrorMessage")).as("Kafka sends none with this error")
                            .isNull());

            client.send(RawClient.request(ApiKey.METADATA, (short) 12, 2, ApiKey.METADATA.request().newMessage()));
            assertThat(client.receive(ApiKey.METADATA, (short) 12).correlationId()).isEqualTo(2);
        }
        try (Admin admin = plaintextAdmin()) {
            assertThat(admin.describeUserScramCredentials().users().get()).containsExactly("fine");
        }
    }

    /** Whether a producer authenticating so gets a record acknowledged; false if authentication fails. */
    private boolean produce(String mechanism, String user, String password) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"" + user + "\" password=\"" + password + "\";");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("scram", "v")).get();
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SaslAuthenticationException) {
                return false;
            }
            throw e;
        } catch (SaslAuthenticationException e) {
            return false;
        }
    }

    private Admin plaintextAdmin() {
        return TestBrokers.admin(broker);
    }
}
