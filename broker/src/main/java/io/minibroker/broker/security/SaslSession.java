package io.minibroker.broker.security;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One connection's SASL authentication on a {@code SASL_PLAINTEXT} listener, the steps Kafka's server-side
 * authenticator takes: a SaslHandshake naming an enabled mechanism, then SaslAuthenticate requests carrying the
 * client's tokens: one for PLAIN ({@code [authzid] NUL authcid NUL password}, RFC 4616), two for SCRAM
 * ({@link ScramServer}), each answered with the server's; after a SaslHandshake v0 (clients before Kafka 1.0) the
 * tokens come as bare size-prefixed frames instead, answered by bare ones (an empty one for PLAIN). Until it succeeds,
 * only the next step is served ({@link #admits}); anything else closes the connection, and a refused mechanism or
 * a failed authentication closes it once the answer to that request is written.
 *
 * <p>Used by one connection's event loop only: no synchronisation.
 */
public final class SaslSession {

    public static final String PLAIN = "PLAIN";
    private static final byte[] NO_TOKEN = new byte[0];

    private enum State { AWAITING_HANDSHAKE, AWAITING_AUTHENTICATE, AWAITING_RAW_TOKEN, AUTHENTICATED, FAILED }

    /** What a step answered: an error (NONE on success) and its message, and the server's token (never null). */
    public record Step(Errors error, String message, byte[] serverToken) {
        static final Step OK = new Step(Errors.NONE, null, NO_TOKEN);

        public Step(Errors error, String message) {
            this(error, message, NO_TOKEN);
        }
    }

    private final List<String> enabledMechanisms;
    private final PlainUsers plainUsers;
    private final ScramCredentials scramCredentials;
    private final DelegationTokens tokens;
    private final Limits limits;
    private State state = State.AWAITING_HANDSHAKE;
    /** Whether an ApiVersions was answered with the table: then only the handshake may come next. */
    private boolean apiVersionsAnswered;
    private String principal;
    /** Whether the connection signed in with a delegation token (then it may not ask for tokens itself). */
    private boolean tokenAuthenticated;
    /** The SCRAM exchange under way, when the handshake chose a SCRAM mechanism. */
    private ScramServer scram;
    private String mechanism;

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
                       DelegationTokens tokens, Limits limits) {
        this.enabledMechanisms = List.copyOf(enabledMechanisms);
        this.plainUsers = plainUsers;
        this.scramCredentials = scramCredentials;
        this.tokens = tokens != null ? tokens : DelegationTokens.disabled();
        this.limits = limits;
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

    /** The user the connection authenticated as (a token's owner, signed in with a token); null before. */
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

    /** Whether the handshake chose a mechanism and SaslAuthenticate requests are awaited. */
    public boolean awaitsAuthenticate() {
        return state == State.AWAITING_AUTHENTICATE;
    }

    /** A request {@link #admits} refused came: the authentication fails, as Kafka's authenticator fails it. */
    public void failOutOfTurn() {
        state = State.FAILED;
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
        this.mechanism = mechanism;
        ScramMechanism scramMechanism = ScramMechanism.bySaslName(mechanism);
        if (scramMechanism != null) {
            scram = new ScramServer(scramMechanism, scramCredentials, tokens);
        }
        state = version == 0 ? State.AWAITING_RAW_TOKEN : State.AWAITING_AUTHENTICATE;
        return Step.OK;
    }

    /** The client's next token: in a SaslAuthenticate, or bare after a SaslHandshake v0. */
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
            state = State.AUTHENTICATED;
            principal = round.user();
            tokenAuthenticated = round.tokenAuthenticated();
        }
        return new Step(Errors.NONE, null, round.serverMessage());
    }

    /** Kafka's answer to a failure its SASL server reports as an error of the exchange, whatever the cause. */
    private String genericFailure() {
        return "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                + mechanism;
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
        state = State.AUTHENTICATED;
        principal = user;
        return Step.OK;
    }

    private Step fail(Errors error, String message) {
        state = State.FAILED;
        return new Step(error, message);
    }
}
