package io.minibroker.broker.security;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One connection's SASL/PLAIN steps: what each answers, in and out of order, and when the connection is done; and its
 * session's lifetime and re-authentication (KIP-368), on a manual clock.
 */
class SaslSessionTest {

    private static final SaslSession.Limits LIMITS = new SaslSession.Limits(524_288, 100);
    private static final SaslSession.Lifetimes NO_LIFETIME = new SaslSession.Lifetimes(Map.of(), () -> 0, () -> 0);

    private final PlainUsers users = PlainUsers.from(List.of(JaasConfig.parseProperty(
            PlainUsers.LOGIN_MODULE + " required user_alice=\"alice-secret\";")));
    private final SaslSession session = new SaslSession(List.of(SaslSession.PLAIN), users, null, null, LIMITS,
            NO_LIFETIME);

    @Test
    void aHandshakeThenTheRightPasswordAuthenticates() {
        assertThat(session.handshake("PLAIN", (short) 1).error()).isEqualTo(Errors.NONE);
        assertThat(session.authenticate(token("", "alice", "alice-secret")).error()).isEqualTo(Errors.NONE);
        assertThat(session.isAuthenticated()).isTrue();
        assertThat(session.principal()).isEqualTo("alice");
        assertThat(session.hasFailed()).isFalse();
    }

    @Test
    void anAuthorizationIdEqualToTheUserIsAccepted() {
        session.handshake("PLAIN", (short) 1);
        assertThat(session.authenticate(token("alice", "alice", "alice-secret")).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void eachBadStepFailsTheSessionWithKafkasError() {
        assertFails(new SaslSession(List.of("PLAIN"), users, null, null, LIMITS, NO_LIFETIME), s -> s.handshake("SCRAM-SHA-256", (short) 1),
                Errors.UNSUPPORTED_SASL_MECHANISM, "Unsupported SASL mechanism SCRAM-SHA-256");
        assertFails(new SaslSession(List.of("PLAIN"), users, null, null, LIMITS, NO_LIFETIME), s -> s.authenticate(token("", "alice", "alice-secret")),
                Errors.ILLEGAL_SASL_STATE, "Unexpected SaslAuthenticate request in state AWAITING_HANDSHAKE");
        assertFails(handshaken(), s -> s.authenticate(token("", "alice", "wrong")),
                Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: Invalid username or password");
        assertFails(handshaken(), s -> s.authenticate(token("", "bob", "alice-secret")),
                Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: Invalid username or password");
        assertFails(handshaken(), s -> s.authenticate(token("mallory", "alice", "alice-secret")),
                Errors.SASL_AUTHENTICATION_FAILED,
                "Authentication failed: Client requested an authorization id that is different from username");
        assertFails(handshaken(), s -> s.authenticate(token("mallory", "alice", "wrong")),
                Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: Invalid username or password");
        // Kafka 4.3's PLAIN server sends its own message for a malformed token, an empty name or password.
        assertFails(handshaken(), s -> s.authenticate(token("", "", "alice-secret")),
                Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: username not specified");
        assertFails(handshaken(), s -> s.authenticate(token("", "alice", "")), Errors.SASL_AUTHENTICATION_FAILED,
                "Authentication failed: password not specified");
        assertFails(handshaken(), s -> s.authenticate("alice".getBytes(StandardCharsets.UTF_8)),
                Errors.SASL_AUTHENTICATION_FAILED, "Invalid SASL/PLAIN response: expected 3 tokens, got 1");
    }

    @Test
    void aTokenWithMoreThanTwoNulCharactersIsRefusedAsKafkaCountsTheTokens() {
        PlainUsers nul = PlainUsers.from(List.of(JaasConfig.parseProperty(
                PlainUsers.LOGIN_MODULE + " required user_carol=\"a\u0000b\";")));
        SaslSession carol = new SaslSession(List.of("PLAIN"), nul, null, null, LIMITS, NO_LIFETIME);
        carol.handshake("PLAIN", (short) 1);
        SaslSession.Step step = carol.authenticate(token("", "carol", "a\u0000b"));
        assertThat(step.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(step.message()).isEqualTo("Invalid SASL/PLAIN response: expected 3 tokens, got 4");
        assertFails(handshaken(), s -> s.authenticate(token("", "alice", "alice-secret\u0000\u0000\u0000")),
                Errors.SASL_AUTHENTICATION_FAILED, "Invalid SASL/PLAIN response: expected 3 tokens, got 4");
    }

    @Test
    void afterAVersion0HandshakeTheTokenComesBare() {
        session.handshake("PLAIN", (short) 0);
        assertThat(session.awaitsRawToken()).isTrue();
        assertThat(session.authenticate(token("", "alice", "alice-secret")).error()).isEqualTo(Errors.NONE);
        assertThat(session.awaitsRawToken()).isFalse();
        assertThat(session.isAuthenticated()).isTrue();
    }

    @Test
    void onlyTheNextStepIsAdmittedBeforeAuthenticating() {
        assertThat(session.admits(ApiKey.API_VERSIONS.id())).isTrue();
        assertThat(session.admits(ApiKey.SASL_HANDSHAKE.id())).isTrue();
        assertThat(session.admits(ApiKey.SASL_AUTHENTICATE.id())).as("before the handshake").isFalse();
        assertThat(session.admits(ApiKey.METADATA.id())).isFalse();
        session.apiVersionsAnswered();
        assertThat(session.admits(ApiKey.API_VERSIONS.id())).as("a second answered ApiVersions").isFalse();
        assertThat(session.admits(ApiKey.SASL_HANDSHAKE.id())).isTrue();
        session.handshake("PLAIN", (short) 1);
        assertThat(session.admits(ApiKey.SASL_AUTHENTICATE.id())).isTrue();
        assertThat(session.admits(ApiKey.API_VERSIONS.id())).as("after the handshake").isFalse();
        assertThat(session.admits(ApiKey.SASL_HANDSHAKE.id())).isFalse();
        session.authenticate(token("", "alice", "alice-secret"));
        assertThat(session.admits(ApiKey.METADATA.id())).isTrue();
    }

    @Test
    void aSecondHandshakeIsOutOfOrder() {
        session.handshake("PLAIN", (short) 1);
        assertThat(session.handshake("PLAIN", (short) 1).error()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
        assertThat(session.hasFailed()).isTrue();
    }

    @Test
    void withoutConnectionsMaxReauthMsASessionHasNoLifetimeAndNeverReauthenticates() {
        assertThat(authenticate(session, "alice").sessionLifetimeMs()).isZero();
        assertThat(session.expired()).isFalse();
        assertThat(session.beginReauthentication()).as("answered ILLEGAL_SASL_STATE instead, as Kafka").isFalse();
    }

    @Test
    void aSessionLastsConnectionsMaxReauthMsForItsMechanismAndExpiresStrictlyAfter() {
        ManualClock clock = new ManualClock();
        SaslSession timed = timed(clock, Map.of("PLAIN", 10_000L));
        assertThat(authenticate(timed, "alice").sessionLifetimeMs()).isEqualTo(10_000);
        clock.advance(10_000);
        assertThat(timed.expired()).as("at its end, as Kafka's nowNanos - expiry > 0").isFalse();
        clock.advance(1);
        assertThat(timed.expired()).isTrue();
        assertThat(timed(clock, Map.of("SCRAM-SHA-256", 10_000L, "PLAIN", -5L)).handshake("PLAIN", (short) 1).error())
                .isEqualTo(Errors.NONE);
    }

    @Test
    void aReauthenticationAsTheSameUserRenewsTheSessionAndKeepsThePrincipalMeanwhile() {
        ManualClock clock = new ManualClock();
        SaslSession timed = timed(clock, Map.of("PLAIN", 10_000L));
        authenticate(timed, "alice");
        clock.advance(9_000);
        assertThat(timed.beginReauthentication()).isTrue();
        assertThat(timed.isAuthenticated()).isFalse();
        assertThat(timed.principal()).as("requests in flight keep it").isEqualTo("alice");
        assertThat(timed.admits(ApiKey.METADATA.id())).isFalse();
        assertThat(timed.admits(ApiKey.SASL_HANDSHAKE.id())).isTrue();
        assertThat(timed.admits(ApiKey.API_VERSIONS.id())).as("the handshake alone").isFalse();
        SaslSession.Step step = authenticate(timed, "alice");
        assertThat(step.error()).isEqualTo(Errors.NONE);
        assertThat(step.sessionLifetimeMs()).isEqualTo(10_000);
        clock.advance(9_000);
        assertThat(timed.expired()).as("the new session runs from the re-authentication").isFalse();
    }

    @Test
    void aReauthenticationEveryLessThanASecondIsNotBegun() {
        ManualClock clock = new ManualClock();
        SaslSession timed = timed(clock, Map.of("PLAIN", 60_000L));
        authenticate(timed, "alice");
        assertThat(timed.beginReauthentication()).as("the first, whenever").isTrue();
        authenticate(timed, "alice");
        clock.advance(999);
        assertThat(timed.beginReauthentication()).isFalse();
        clock.advance(1);
        assertThat(timed.beginReauthentication()).isTrue();
    }

    @Test
    void aReauthenticationMayChangeNeitherThePrincipalNorTheMechanism() {
        ManualClock clock = new ManualClock();
        PlainUsers two = PlainUsers.from(List.of(JaasConfig.parseProperty(PlainUsers.LOGIN_MODULE
                + " required user_alice=\"alice-secret\" user_bob=\"bob-secret\";")));
        SaslSession timed = new SaslSession(List.of("PLAIN", "SCRAM-SHA-256"), two, ScramCredentials.following(), null,
                LIMITS, new SaslSession.Lifetimes(Map.of("PLAIN", 10_000L), clock::nowMs, clock::nowMs));
        authenticate(timed, "alice");
        timed.beginReauthentication();
        timed.handshake("PLAIN", (short) 1);
        assertFails(timed, s -> s.authenticate(token("", "bob", "bob-secret")), Errors.SASL_AUTHENTICATION_FAILED,
                "Cannot change principals during re-authentication from User.alice: User.bob");

        SaslSession other = new SaslSession(List.of("PLAIN", "SCRAM-SHA-256"), two, ScramCredentials.following(), null,
                LIMITS, new SaslSession.Lifetimes(Map.of("PLAIN", 10_000L), clock::nowMs, clock::nowMs));
        authenticate(other, "alice");
        other.beginReauthentication();
        assertThat(other.handshake("SCRAM-SHA-256", (short) 1).error()).as("Kafka answers the handshake")
                .isEqualTo(Errors.NONE);
        assertThat(other.badMechanismMessage()).as("the connection closes at the next frame").isEqualTo(
                "SASL mechanism 'SCRAM-SHA-256' requested by client is not supported for re-authentication of"
                        + " mechanism 'PLAIN'");
    }

    private SaslSession timed(ManualClock clock, Map<String, Long> maxReauthMs) {
        return new SaslSession(List.of("PLAIN"), users, null, null, LIMITS,
                new SaslSession.Lifetimes(maxReauthMs, clock::nowMs, clock::nowMs));
    }

    private static SaslSession.Step authenticate(SaslSession session, String user) {
        assertThat(session.handshake("PLAIN", (short) 1).error()).isEqualTo(Errors.NONE);
        return session.authenticate(token("", user, user + "-secret"));
    }

    private SaslSession handshaken() {
        SaslSession fresh = new SaslSession(List.of("PLAIN"), users, null, null, LIMITS, NO_LIFETIME);
        fresh.handshake("PLAIN", (short) 1);
        return fresh;
    }

    private static void assertFails(SaslSession session, java.util.function.Function<SaslSession, SaslSession.Step> step,
                                    Errors error, String message) {
        assertThat(step.apply(session)).isEqualTo(new SaslSession.Step(error, message));
        assertThat(session.hasFailed()).isTrue();
        assertThat(session.isAuthenticated()).isFalse();
    }

    private static byte[] token(String authorizationId, String user, String password) {
        return (authorizationId + "\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }
}
