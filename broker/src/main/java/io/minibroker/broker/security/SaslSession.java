package io.minibroker.broker.security;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One connection's SASL authentication on a {@code SASL_PLAINTEXT} listener, the steps Kafka's server-side
 * authenticator takes: a SaslHandshake naming an enabled mechanism, then SaslAuthenticate requests carrying the
 * client's tokens: one for PLAIN ({@code [authzid] NUL authcid NUL password}, RFC 4616), two for SCRAM
 * ({@link ScramServer}), each answered with the server's; after a SaslHandshake v0 (clients before Kafka 1.0) the
 * tokens come as bare size-prefixed frames instead, answered by bare ones (an empty one for PLAIN). Until it succeeds,
 * only the next step is served ({@link #admits}); anything else closes the connection, and a refused mechanism or
 * a failed authentication closes it once the answer to that request is written.
 *
 * <p>Re-authentication (KIP-368), as Kafka's SaslServerAuthenticator and KafkaChannel: a session has a lifetime when
 * {@code connections.max.reauth.ms} is set for its mechanism or a delegation token signed it in (the token's expiry,
 * even without the key), told to the client in the SaslAuthenticate answer. Once it is over, the connection is closed
 * at its next request ({@link #expired}) unless that is a SaslHandshake, which begins a re-authentication
 * ({@link #beginReauthentication}; at most one a second): the same steps again, the same mechanism and principal,
 * and a new lifetime. The principal stays in force meanwhile, for the requests already in flight.
 *
 * <p>What the authentications come to goes to {@link Outcomes}, Kafka's selector metrics: a first authentication
 * (and whether the client can re-authenticate: it sent a SaslAuthenticate v1 or later, as Kafka's authenticator
 * judges), a failed first authentication (any step refused before it succeeded), a re-authentication and its latency
 * (from the SaslHandshake that began it to its success), a failed re-authentication (any step refused during one).
 *
 * <p>Used by one connection's event loop only: no synchronisation.
 */
public final class SaslSession {

    public static final String PLAIN = "PLAIN";
    private static final byte[] NO_TOKEN = new byte[0];

    private enum State { AWAITING_HANDSHAKE, AWAITING_AUTHENTICATE, AWAITING_RAW_TOKEN, AUTHENTICATED, FAILED }

    /** Kafka's KafkaChannel: a client re-authenticates at most once a second. */
    static final long MIN_REAUTHENTICATION_INTERVAL_MS = 1_000;

    /**
     * What a step answered: an error (NONE on success) and its message, the server's token (never null), and once
     * authenticated the session's lifetime (0: none), which SaslAuthenticate v1+ tells the client.
     */
    public record Step(Errors error, String message, byte[] serverToken, long sessionLifetimeMs) {
        static final Step OK = new Step(Errors.NONE, null, NO_TOKEN);

        public Step(Errors error, String message) {
            this(error, message, NO_TOKEN);
        }

        public Step(Errors error, String message, byte[] serverToken) {
            this(error, message, serverToken, 0);
        }
    }

    /**
     * How long a session lasts: {@code connections.max.reauth.ms} by mechanism (absent, 0 or less: no limit of its
     * own), on the broker's clock: monotonic for the session's end, wall-clock for a token's expiry time.
     */
    public record Lifetimes(Map<String, Long> maxReauthMsByMechanism, LongSupplier monotonicMs,
                            LongSupplier wallClockMs) {
        public Lifetimes {
            maxReauthMsByMechanism = Map.copyOf(maxReauthMsByMechanism);
        }

        long maxReauthMs(String mechanism) {
            return maxReauthMsByMechanism.getOrDefault(mechanism, 0L);
        }
    }

    /** What a connection's authentications came to: Kafka's selector counts them per listener. */
    public interface Outcomes {
        Outcomes NONE = new Outcomes() {
            @Override
            public void authenticated(boolean clientSupportsReauthentication) {
            }

            @Override
            public void authenticationFailed() {
            }

            @Override
            public void reauthenticated(long latencyMs) {
            }

            @Override
            public void reauthenticationFailed() {
            }
        };

        /** A connection's first authentication succeeded. */
        void authenticated(boolean clientSupportsReauthentication);

        /** A connection's first authentication failed: the connection closes. */
        void authenticationFailed();

        /** A re-authentication succeeded, {@code latencyMs} after the SaslHandshake that began it. */
        void reauthenticated(long latencyMs);

        /** A re-authentication failed: the connection closes. */
        void reauthenticationFailed();
    }

    private final List<String> enabledMechanisms;
    private final PlainUsers plainUsers;
    private final ScramCredentials scramCredentials;
    private final DelegationTokens tokens;
    private final Limits limits;
    private final Lifetimes lifetimes;
    private final Outcomes outcomes;
    private State state = State.AWAITING_HANDSHAKE;
    /** Whether an ApiVersions was answered with the table: then only the handshake may come next. */
    private boolean apiVersionsAnswered;
    private String principal;
    /** Whether the connection signed in with a delegation token (then it may not ask for tokens itself). */
    private boolean tokenAuthenticated;
    /** The SCRAM exchange under way, when the handshake chose a SCRAM mechanism. */
    private ScramServer scram;
    private String mechanism;
    /** When the session ends on the monotonic clock, once authenticated; null when it never does. */
    private Long sessionEndMs;
    /** When the last re-authentication began on the monotonic clock; null before the first. */
    private Long lastReauthenticationMs;
    /** Whether a re-authentication is under way: then the principal it must keep is {@link #principal}. */
    private boolean reauthenticating;
    /**
     * Why a re-authentication's handshake named another mechanism: it fails at the client's next frame, as Kafka's
     * authenticator fails it (REAUTH_BAD_MECHANISM).
     */
    private String badMechanismMessage;
    /** Whether a SaslAuthenticate v1+ came: the client knows session lifetimes, so it can re-authenticate. */
    private boolean clientSupportsReauthentication;

    /**
     * What a connection is held to while it authenticates: the largest frame it may send before it has
     * ({@code sasl.server.max.receive.size}), and how long the answer to a failed step waits before it is written
     * and the connection closed ({@code connection.failed.authentication.delay.ms}), so that a client guessing
     * passwords gets one guess per connection and delay.
     */
    public record Limits(int maxReceiveBytes, long failedAuthenticationDelayMs) {
    }

    /**
     * @param plainUsers PLAIN's users, if PLAIN is enabled; @param scramCredentials SCRAM's, if a SCRAM one is, and
     * {@code tokens} the delegation tokens SCRAM signs in with {@code tokenauth=true} (none if null)
     */
    public SaslSession(List<String> enabledMechanisms, PlainUsers plainUsers, ScramCredentials scramCredentials,
                       DelegationTokens tokens, Limits limits, Lifetimes lifetimes) {
        this(enabledMechanisms, plainUsers, scramCredentials, tokens, limits, lifetimes, Outcomes.NONE);
    }

    public SaslSession(List<String> enabledMechanisms, PlainUsers plainUsers, ScramCredentials scramCredentials,
                       DelegationTokens tokens, Limits limits, Lifetimes lifetimes, Outcomes outcomes) {
        this.outcomes = outcomes;
        this.enabledMechanisms = List.copyOf(enabledMechanisms);
        this.plainUsers = plainUsers;
        this.scramCredentials = scramCredentials;
        this.tokens = tokens != null ? tokens : DelegationTokens.disabled();
        this.limits = limits;
        this.lifetimes = lifetimes;
    }

    public Limits limits() {
        return limits;
    }

    public List<String> enabledMechanisms() {
        return enabledMechanisms;
    }

    public boolean isAuthenticated() {
        return state == State.AUTHENTICATED;
    }

    /** Whether the connection is to be closed once the answer to the request that failed it is written. */
    public boolean hasFailed() {
        return state == State.FAILED;
    }

    /**
     * The user the connection authenticated as (a token's owner, signed in with a token); null before; during a
     * re-authentication still the one it authenticated as, which the re-authentication must keep.
     */
    public String principal() {
        return principal;
    }

    /** Whether the connection signed in with a delegation token, Kafka's KafkaPrincipal.tokenAuthenticated. */
    public boolean tokenAuthenticated() {
        return tokenAuthenticated;
    }

    /**
     * Whether a request of this API may come now. Before authenticating only the next step may, as Kafka's
     * authenticator takes them: ApiVersions or SaslHandshake, then SaslAuthenticate. An ApiVersions answered with
     * an error (UNSUPPORTED_VERSION, INVALID_REQUEST) may be retried; one answered with the table may not.
     */
    public boolean admits(short apiKey) {
        return switch (state) {
            case AUTHENTICATED -> true;
            case AWAITING_HANDSHAKE -> apiKey == ApiKey.SASL_HANDSHAKE.id()
                    || (apiKey == ApiKey.API_VERSIONS.id() && !apiVersionsAnswered);
            case AWAITING_AUTHENTICATE -> apiKey == ApiKey.SASL_AUTHENTICATE.id();
            case AWAITING_RAW_TOKEN, FAILED -> false;
        };
    }

    /**
     * Whether the authenticated session is over (strictly past its end, as Kafka's KafkaChannel judges): the
     * connection is closed at its next request, unless that request begins a re-authentication.
     */
    public boolean expired() {
        return state == State.AUTHENTICATED && sessionEndMs != null
                && lifetimes.monotonicMs().getAsLong() > sessionEndMs;
    }

    /**
     * A SaslHandshake came on the authenticated connection: begins a re-authentication if the session has a
     * lifetime and the last one began a second ago or more, as Kafka's KafkaChannel.maybeBeginServerReauthentication;
     * otherwise false, and the handshake is answered as on any authenticated connection (ILLEGAL_SASL_STATE).
     */
    public boolean beginReauthentication() {
        if (state != State.AUTHENTICATED || sessionEndMs == null) {
            return false;
        }
        long now = lifetimes.monotonicMs().getAsLong();
        if (lastReauthenticationMs != null && now - lastReauthenticationMs < MIN_REAUTHENTICATION_INTERVAL_MS) {
            return false;
        }
        lastReauthenticationMs = now;
        reauthenticating = true;
        scram = null;
        state = State.AWAITING_HANDSHAKE;
        apiVersionsAnswered = true; // the handshake that began it is the one step that may come
        return true;
    }

    /**
     * Why the re-authentication fails at the client's next frame, whatever it is, with nothing answered: its
     * handshake named another mechanism than the session's (then answered NONE, as Kafka answers it); null otherwise.
     */
    public String badMechanismMessage() {
        return badMechanismMessage;
    }

    /** Whether the handshake chose a mechanism and SaslAuthenticate requests are awaited. */
    public boolean awaitsAuthenticate() {
        return state == State.AWAITING_AUTHENTICATE;
    }

    /** A request {@link #admits} refused came: the authentication fails, as Kafka's authenticator fails it. */
    public void failOutOfTurn() {
        fail(Errors.ILLEGAL_SASL_STATE, null);
    }

    /**
     * A frame of a size refused came (above {@code sasl.server.max.receive.size} while the SASL steps are under way,
     * or negative) and the connection closes at once. Before it authenticated, or during a re-authentication, that
     * fails the authentication or the re-authentication, as Kafka's authenticator fails it on an invalid receive size
     * (and its selector counts it by whether the connection had authenticated before). Nothing is counted once a step
     * already failed, nor on an authenticated connection, whose frame was over {@code socket.request.max.bytes}.
     */
    public void receiveSizeRefused() {
        if (state != State.FAILED && state != State.AUTHENTICATED) {
            fail(Errors.SASL_AUTHENTICATION_FAILED, null);
        }
    }

    /** Called when an ApiVersions before authenticating is answered with the table, without an error. */
    public void apiVersionsAnswered() {
        apiVersionsAnswered = true;
    }

    /** Whether the next frame is the client's bare token, not a request (after a SaslHandshake v0). */
    public boolean awaitsRawToken() {
        return state == State.AWAITING_RAW_TOKEN;
    }

    /** A SaslHandshake of this version naming {@code mechanism}. */
    public Step handshake(String mechanism, short version) {
        if (state != State.AWAITING_HANDSHAKE) {
            return fail(Errors.ILLEGAL_SASL_STATE, "Unexpected SaslHandshake request in state " + state);
        }
        if (!enabledMechanisms.contains(mechanism)) {
            return fail(Errors.UNSUPPORTED_SASL_MECHANISM, "Unsupported SASL mechanism " + mechanism);
        }
        if (reauthenticating && !mechanism.equals(this.mechanism)) {
            // Kafka answers the handshake and fails at the frame after it (see badMechanismMessage()).
            badMechanismMessage = "SASL mechanism '" + mechanism + "' requested by client is not supported for"
                    + " re-authentication of mechanism '" + this.mechanism + "'";
        }
        this.mechanism = mechanism;
        ScramMechanism scramMechanism = ScramMechanism.bySaslName(mechanism);
        if (scramMechanism != null) {
            scram = new ScramServer(scramMechanism, scramCredentials, tokens);
        }
        state = version == 0 ? State.AWAITING_RAW_TOKEN : State.AWAITING_AUTHENTICATE;
        return Step.OK;
    }

    /**
     * The client's next token in a SaslAuthenticate of this version: from v1 on, the client can re-authenticate, as
     * Kafka's authenticator judges it from any one of a connection's SaslAuthenticate requests.
     */
    public Step authenticate(byte[] token, short saslAuthenticateVersion) {
        clientSupportsReauthentication |= saslAuthenticateVersion > 0;
        return authenticate(token);
    }

    /** The client's next token: bare after a SaslHandshake v0 (or in a SaslAuthenticate v0). */
    public Step authenticate(byte[] token) {
        if (state != State.AWAITING_AUTHENTICATE && state != State.AWAITING_RAW_TOKEN) {
            return fail(Errors.ILLEGAL_SASL_STATE, "Unexpected SaslAuthenticate request in state " + state);
        }
        return scram != null ? scramRound(token) : plain(token);
    }

    private Step scramRound(byte[] token) {
        ScramServer.Round round = scram.evaluate(token);
        if (round.failed()) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED, round.failureMessage() != null ? round.failureMessage() : genericFailure());
        }
        if (round.complete()) {
            return authenticated(round.user(), round.tokenAuthenticated(), round.credentialExpiryMs(),
                    round.serverMessage());
        }
        return new Step(Errors.NONE, null, round.serverMessage());
    }

    /**
     * The exchange succeeded as {@code user}: a re-authentication must keep the principal; the session's lifetime is
     * Kafka's: {@code connections.max.reauth.ms}, or the time to the credential's expiry (a token's), whichever is
     * shorter, never below 0; none when neither is set.
     */
    private Step authenticated(String user, boolean byToken, Long credentialExpiryMs, byte[] serverToken) {
        if (reauthenticating && !user.equals(principal)) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED, "Cannot change principals during re-authentication from "
                    + KafkaPrincipal.USER_TYPE + "." + principal + ": " + KafkaPrincipal.USER_TYPE + "." + user);
        }
        long maxReauthMs = lifetimes.maxReauthMs(mechanism);
        long lifetimeMs = 0;
        if (credentialExpiryMs != null || maxReauthMs > 0) {
            long untilExpiry = credentialExpiryMs == null ? Long.MAX_VALUE
                    : credentialExpiryMs - lifetimes.wallClockMs().getAsLong();
            lifetimeMs = Math.max(0, Math.min(untilExpiry, maxReauthMs > 0 ? maxReauthMs : Long.MAX_VALUE));
            long now = lifetimes.monotonicMs().getAsLong();
            sessionEndMs = now > Long.MAX_VALUE - lifetimeMs ? Long.MAX_VALUE : now + lifetimeMs;
        } else {
            sessionEndMs = null;
        }
        if (reauthenticating) {
            outcomes.reauthenticated(lifetimes.monotonicMs().getAsLong() - lastReauthenticationMs);
        } else {
            outcomes.authenticated(clientSupportsReauthentication);
        }
        state = State.AUTHENTICATED;
        reauthenticating = false;
        principal = user;
        tokenAuthenticated = byToken;
        return new Step(Errors.NONE, null, serverToken, lifetimeMs);
    }

    /** Kafka's answer to a failure its SASL server reports as an error of the exchange, whatever the cause. */
    private String genericFailure() {
        return "Authentication failed during " + (reauthenticating ? "re-authentication" : "authentication")
                + " due to invalid credentials with SASL mechanism " + mechanism;
    }

    private Step plain(byte[] token) {
        // Kafka 4.3's PLAIN server: exactly three NUL-separated tokens (it counts at most four), a name and a
        // password; its authenticator sends these messages to the client as they are. Wrong credentials come
        // before a foreign authorization id.
        String text = new String(token, StandardCharsets.UTF_8);
        long nuls = text.chars().filter(c -> c == 0).count();
        if (nuls != 2) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED,
                    "Invalid SASL/PLAIN response: expected 3 tokens, got " + Math.min(nuls + 1, 4));
        }
        String[] parts = text.split("\u0000", -1);
        if (parts[1].isEmpty()) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: username not specified");
        }
        if (parts[2].isEmpty()) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: password not specified");
        }
        String authorizationId = parts[0];
        String user = parts[1];
        if (!plainUsers.accepts(user, parts[2])) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED, "Authentication failed: Invalid username or password");
        }
        if (!authorizationId.isEmpty() && !authorizationId.equals(user)) {
            return fail(Errors.SASL_AUTHENTICATION_FAILED,
                    "Authentication failed: Client requested an authorization id that is different from username");
        }
        return authenticated(user, false, null, NO_TOKEN);
    }

    private Step fail(Errors error, String message) {
        if (reauthenticating) {
            outcomes.reauthenticationFailed();
            reauthenticating = false;
        } else {
            outcomes.authenticationFailed();
        }
        state = State.FAILED;
        return new Step(error, message);
    }
}
