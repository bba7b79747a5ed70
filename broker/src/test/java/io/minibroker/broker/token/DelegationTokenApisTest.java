package io.minibroker.broker.token;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateDelegationTokenRequestView;
import io.minibroker.protocol.message.view.CreateDelegationTokenResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.DescribeDelegationTokenOptions;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.clients.admin.RenewDelegationTokenOptions;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.DelegationTokenAuthorizationException;
import org.apache.kafka.common.errors.DelegationTokenDisabledException;
import org.apache.kafka.common.errors.DelegationTokenExpiredException;
import org.apache.kafka.common.errors.DelegationTokenNotFoundException;
import org.apache.kafka.common.errors.DelegationTokenOwnerMismatchException;
import org.apache.kafka.common.errors.InvalidPrincipalTypeException;
import org.apache.kafka.common.errors.UnsupportedByAuthenticationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The delegation token APIs on a single node, driven by kafka-clients' Admin as kafka-delegation-tokens drives them,
 * users signed in with PLAIN on a SASL_PLAINTEXT listener, the broker on a manual clock: the times Kafka's controller
 * gives a token, who may renew, expire and see it, the errors at the edges, the expiry check, and a restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DelegationTokenApisTest {

    private static final String SECRET = "token-secret";
    private static final long MAX_LIFETIME_MS = 10_000;
    static final long EXPIRY_TIME_MS = 4_000;
    static final long CHECK_INTERVAL_MS = 60_000;
    private static final KafkaPrincipal ALICE = new KafkaPrincipal("User", "alice");
    private static final KafkaPrincipal BOB = new KafkaPrincipal("User", "bob");

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

    static Map<String, String> settings(boolean withSecret) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\""
                        + " user_bob=\"bob-secret\" user_carol=\"carol-secret\" user_dave=\"dave-secret\""
                        + " user_admin=\"admin-secret\";",
                "authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER,
                "super.users", "User:admin",
                "delegation.token.max.lifetime.ms", Long.toString(MAX_LIFETIME_MS),
                "delegation.token.expiry.time.ms", Long.toString(EXPIRY_TIME_MS),
                "delegation.token.expiry.check.interval.ms", Long.toString(CHECK_INTERVAL_MS)));
        if (withSecret) {
            settings.put("delegation.token.secret.key", SECRET);
        }
        return settings;
    }

    @Test
    void aTokenIsCreatedRenewedExpiredAndDescribedWithKafkasTimesAndSurvivesARestart() throws Exception {
        broker = TestBrokers.start(logDir, settings(true), clock);
        try (Admin alice = admin("alice"); Admin bob = admin("bob"); Admin carol = admin("carol")) {
            DelegationToken first = alice.createDelegationToken(new CreateDelegationTokenOptions()
                    .renewers(List.of(BOB))).delegationToken().get();
            TokenInformation info = first.tokenInfo();
            long issued = info.issueTimestamp();
            assertThat(info.owner()).isEqualTo(ALICE);
            assertThat(info.tokenRequester()).isEqualTo(ALICE);
            assertThat(info.renewers()).containsExactly(BOB);
            assertThat(info.maxTimestamp()).as("no lifetime asked: the broker's maximum").isEqualTo(issued + MAX_LIFETIME_MS);
            assertThat(info.expiryTimestamp()).isEqualTo(issued + EXPIRY_TIME_MS);
            assertThat(first.hmac()).as("HmacSHA512 of the id under the secret key").isEqualTo(hmac(info.tokenId()));

            DelegationToken second = alice.createDelegationToken(new CreateDelegationTokenOptions()
                    .maxlifeTimeMs(3_000)).delegationToken().get();
            assertThat(second.tokenInfo().maxTimestamp()).isEqualTo(second.tokenInfo().issueTimestamp() + 3_000);
            assertThat(second.tokenInfo().expiryTimestamp()).as("never past the maximum")
                    .isEqualTo(second.tokenInfo().maxTimestamp());

            assertThat(ids(alice.describeDelegationToken().delegationTokens()))
                    .containsExactlyInAnyOrder(info.tokenId(), second.tokenInfo().tokenId());
            assertThat(ids(bob.describeDelegationToken().delegationTokens())).as("a renewer sees the token")
                    .containsExactly(info.tokenId());
            assertThat(ids(carol.describeDelegationToken().delegationTokens())).isEmpty();
            assertThat(ids(alice.describeDelegationToken(new DescribeDelegationTokenOptions().owners(List.of(BOB)))
                    .delegationTokens())).as("owners filter by owner or renewer").containsExactly(info.tokenId());
            assertThat(ids(alice.describeDelegationToken(new DescribeDelegationTokenOptions().owners(List.of()))
                    .delegationTokens())).as("an empty owners list: none").isEmpty();
            assertThat(alice.describeDelegationToken().delegationTokens().get()).filteredOn(
                    token -> token.tokenInfo().tokenId().equals(info.tokenId())).singleElement()
                    .satisfies(token -> assertThat(token.hmac()).isEqualTo(first.hmac()));

            assertFails(carol.renewDelegationToken(first.hmac()).expiryTimestamp(),
                    DelegationTokenOwnerMismatchException.class);
            assertFails(alice.renewDelegationToken(hmac("no-such-token")).expiryTimestamp(),
                    DelegationTokenNotFoundException.class);
            clock.advance(1_000);
            long now = issued + 1_000;
            assertThat(bob.renewDelegationToken(first.hmac(), new RenewDelegationTokenOptions()
                    .renewTimePeriodMs(500)).expiryTimestamp().get()).isEqualTo(now + 500);
            assertThat(alice.renewDelegationToken(first.hmac(), new RenewDelegationTokenOptions()
                    .renewTimePeriodMs(60_000)).expiryTimestamp().get())
                    .as("a period past the broker's expiry time is capped by it").isEqualTo(now + EXPIRY_TIME_MS);
            assertThat(alice.expireDelegationToken(first.hmac(), new ExpireDelegationTokenOptions()
                    .expiryTimePeriodMs(200)).expiryTimestamp().get()).isEqualTo(now + 200);

            clock.advance(3_000); // past the first's expiry and the second's maximum; no expiry check yet
            assertFails(alice.renewDelegationToken(first.hmac()).expiryTimestamp(),
                    DelegationTokenExpiredException.class);
            assertFails(alice.expireDelegationToken(second.hmac(), new ExpireDelegationTokenOptions()
                    .expiryTimePeriodMs(0)).expiryTimestamp(), DelegationTokenExpiredException.class);
            assertThat(ids(alice.describeDelegationToken().delegationTokens()))
                    .as("listed until the expiry check removes them").hasSize(2);
            assertThat(alice.expireDelegationToken(second.hmac(), new ExpireDelegationTokenOptions()
                    .expiryTimePeriodMs(-1)).expiryTimestamp().get())
                    .as("a negative period removes even an expired token, answered with now").isEqualTo(now + 3_000);
            assertThat(ids(alice.describeDelegationToken().delegationTokens())).containsExactly(info.tokenId());

            clock.advance(CHECK_INTERVAL_MS);
            assertThat(ids(alice.describeDelegationToken().delegationTokens())).as("the expiry check ran").isEmpty();
            assertFails(alice.renewDelegationToken(first.hmac()).expiryTimestamp(),
                    DelegationTokenNotFoundException.class);

            DelegationToken kept = alice.createDelegationToken().delegationToken().get();
            broker.close();
            broker = TestBrokers.start(logDir, settings(true), clock);
            try (Admin again = admin("alice")) {
                assertThat(again.describeDelegationToken().delegationTokens().get()).singleElement().satisfies(token -> {
                    assertThat(token.tokenInfo()).isEqualTo(kept.tokenInfo());
                    assertThat(token.hmac()).isEqualTo(kept.hmac());
                });
            }
        }
    }

    @Test
    void errorsAtTheEdgesAsKafkaAnswersThem() throws Exception {
        broker = TestBrokers.start(logDir, settings(true), clock);
        try (Admin alice = admin("alice"); Admin admin = admin("admin"); Admin carol = admin("carol");
             Admin dave = admin("dave")) {
            assertFails(alice.createDelegationToken(new CreateDelegationTokenOptions().owner(BOB)).delegationToken(),
                    DelegationTokenAuthorizationException.class);
            assertFails(alice.createDelegationToken(new CreateDelegationTokenOptions()
                    .renewers(List.of(new KafkaPrincipal("Group", "g")))).delegationToken(),
                    InvalidPrincipalTypeException.class);
            admin.createAcls(List.of(
                    new AclBinding(new ResourcePattern(ResourceType.USER, "User:bob", PatternType.LITERAL),
                            new AccessControlEntry("User:alice", "*", AclOperation.CREATE_TOKENS,
                                    AclPermissionType.ALLOW)),
                    new AclBinding(new ResourcePattern(ResourceType.USER, "User:bob", PatternType.LITERAL),
                            new AccessControlEntry("User:dave", "*", AclOperation.DESCRIBE_TOKENS,
                                    AclPermissionType.ALLOW)))).all().get();
            DelegationToken forBob = alice.createDelegationToken(new CreateDelegationTokenOptions().owner(BOB))
                    .delegationToken().get();
            assertThat(forBob.tokenInfo().owner()).isEqualTo(BOB);
            assertThat(forBob.tokenInfo().tokenRequester()).isEqualTo(ALICE);
            assertFails(alice.renewDelegationToken(forBob.hmac()).expiryTimestamp(),
                    DelegationTokenOwnerMismatchException.class);

            assertThat(ids(carol.describeDelegationToken().delegationTokens())).isEmpty();
            assertThat(ids(alice.describeDelegationToken().delegationTokens())).as("its requester sees it")
                    .containsExactly(forBob.tokenInfo().tokenId());
            assertThat(ids(carol.describeDelegationToken(new DescribeDelegationTokenOptions()
                    .owners(List.of(ALICE))).delegationTokens())).as("carol may not see it, whatever the owners").isEmpty();
            assertThat(ids(admin.describeDelegationToken(new DescribeDelegationTokenOptions()
                    .owners(List.of(ALICE))).delegationTokens())).as("owners filter by requester too")
                    .containsExactly(forBob.tokenInfo().tokenId());
            assertThat(ids(dave.describeDelegationToken().delegationTokens())).as("DESCRIBE_TOKENS on User:bob")
                    .containsExactly(forBob.tokenInfo().tokenId());
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.DELEGATION_TOKEN,
                    forBob.tokenInfo().tokenId(), PatternType.LITERAL), new AccessControlEntry("User:carol", "*",
                    AclOperation.DESCRIBE, AclPermissionType.ALLOW)))).all().get();
            assertThat(ids(carol.describeDelegationToken().delegationTokens())).as("DESCRIBE on the token")
                    .containsExactly(forBob.tokenInfo().tokenId());
            assertThat(ids(admin.describeDelegationToken().delegationTokens())).as("a super user sees all")
                    .containsExactly(forBob.tokenInfo().tokenId());

            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            ConfigEntry secret = admin.describeConfigs(List.of(node)).all().get().get(node)
                    .get("delegation.token.secret.key");
            assertThat(secret.isSensitive()).isTrue();
            assertThat(secret.value()).as("a password is never sent").isNull();
        }
        // Over PLAINTEXT no token may be asked for, nor listed.
        for (ApiKey api : List.of(ApiKey.CREATE_DELEGATION_TOKEN, ApiKey.RENEW_DELEGATION_TOKEN,
                ApiKey.EXPIRE_DELEGATION_TOKEN, ApiKey.DESCRIBE_DELEGATION_TOKEN)) {
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                short version = api.highestStableVersion();
                client.send(RawClient.request(api, version, 7, api.request().newMessage()));
                Struct body = client.receive(api, version).body();
                assertThat(body.getInt16("ErrorCode")).as(api.name())
                        .isEqualTo(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code());
                if (api == ApiKey.CREATE_DELEGATION_TOKEN) {
                    assertThat(times(body)).as("Kafka's broker's refusal: -1 for the times").containsOnly(-1L);
                }
            }
        }
        // v3's nullable owner type left null beside an owner name: Kafka's KafkaPrincipal refuses it, so its handler
        // fails before any other check and the error response names ANONYMOUS (found by RequestFuzzTest: the echoed
        // null type could not be encoded and the connection was closed).
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            ApiKey api = ApiKey.CREATE_DELEGATION_TOKEN;
            client.send(RawClient.request(api, (short) 3, 8, new CreateDelegationTokenRequestView()
                    .ownerPrincipalType(null).ownerPrincipalName("bob").struct()));
            Struct body = client.receive(api, (short) 3).body();
            assertThat(body.getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
            CreateDelegationTokenResponseView answer = new CreateDelegationTokenResponseView(body);
            assertThat(answer.principalType() + ":" + answer.principalName()).isEqualTo("User:ANONYMOUS");
            assertThat(answer.tokenRequesterPrincipalType() + ":" + answer.tokenRequesterPrincipalName())
                    .isEqualTo("User:ANONYMOUS");
        }
        broker.close();
        broker = TestBrokers.start(logDir, settings(false), clock);
        try (Admin alice = admin("alice")) {
            assertFails(alice.createDelegationToken().delegationToken(), DelegationTokenDisabledException.class);
            assertFails(alice.describeDelegationToken().delegationTokens(), DelegationTokenDisabledException.class);
            assertFails(alice.renewDelegationToken(hmac("x")).expiryTimestamp(),
                    DelegationTokenDisabledException.class);
            assertFails(alice.expireDelegationToken(hmac("x")).expiryTimestamp(),
                    DelegationTokenDisabledException.class);
        }
        try (Admin plaintext = TestBrokers.admin(broker)) {
            assertFails(plaintext.createDelegationToken().delegationToken(),
                    UnsupportedByAuthenticationException.class);
        }
        // Tokens being off is Kafka's controller's answer, which leaves the times at 0 (its broker's refusals: -1).
        try (RawClient client = new RawClient(broker.boundPort("SASL_PLAINTEXT"))) {
            client.send(RawClient.request(ApiKey.SASL_HANDSHAKE, (short) 1, 1,
                    ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", "PLAIN")));
            client.receive(ApiKey.SASL_HANDSHAKE, (short) 1);
            client.send(RawClient.request(ApiKey.SASL_AUTHENTICATE, (short) 2, 2, ApiKey.SASL_AUTHENTICATE.request()
                    .newMessage().set("AuthBytes", "\0alice\0alice-secret".getBytes(StandardCharsets.UTF_8))));
            assertThat(client.receive(ApiKey.SASL_AUTHENTICATE, (short) 2).body().getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            ApiKey api = ApiKey.CREATE_DELEGATION_TOKEN;
            client.send(RawClient.request(api, (short) 3, 3, api.request().newMessage()));
            Struct body = client.receive(api, (short) 3).body();
            assertThat(body.getInt16("ErrorCode")).isEqualTo(Errors.DELEGATION_TOKEN_AUTH_DISABLED.code());
            CreateDelegationTokenResponseView answer = new CreateDelegationTokenResponseView(body);
            assertThat(answer.principalType() + ":" + answer.principalName()).isEqualTo("User:alice");
            assertThat(times(body)).containsOnly(0L);
        }
    }

    /** A CreateDelegationToken answer's issue, expiry and maximum times. */
    private static List<Long> times(Struct body) {
        CreateDelegationTokenResponseView answer = new CreateDelegationTokenResponseView(body);
        return List.of(answer.issueTimestampMs(), answer.expiryTimestampMs(), answer.maxTimestampMs());
    }

    private Admin admin(String user) {
        return plainAdmin(broker, user);
    }

    /** An Admin signed in as {@code user} with PLAIN (password {@code <user>-secret}) on the SASL listener. */
    static Admin plainAdmin(Broker broker, String user) {
        return Admin.create(Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("SASL_PLAINTEXT"),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
                SaslConfigs.SASL_MECHANISM, "PLAIN",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"" + user + "\" password=\"" + user + "-secret\";"));
    }

    private static List<String> ids(Future<List<DelegationToken>> tokens) throws Exception {
        return tokens.get().stream().map(token -> token.tokenInfo().tokenId()).toList();
    }

    static byte[] hmac(String tokenId) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        return mac.doFinal(tokenId.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertFails(Future<?> future, Class<? extends Throwable> cause) {
        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(cause);
    }
}
