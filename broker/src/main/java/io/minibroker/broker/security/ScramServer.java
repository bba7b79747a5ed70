package io.minibroker.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The server side of one SCRAM exchange (RFC 5802), in Kafka's two rounds:
 * <pre>
 *   client-first  n,,n=alice,r=&lt;client nonce&gt;
 *   server-first  r=&lt;client nonce + server nonce&gt;,s=&lt;salt&gt;,i=&lt;iterations&gt;
 *   client-final  c=biws,r=&lt;both nonces&gt;,p=&lt;client proof&gt;
 *   server-final  v=&lt;server signature&gt;
 * </pre>
 * The proof shows the client knows the salted password: the client key it recovers from the proof must hash to the
 * stored key. No channel binding is taken, and of the client's extensions only Kafka's {@code tokenauth} is heeded:
 * with {@code tokenauth=true} the user name is a delegation token's id, checked against the token's credential for
 * this mechanism (its HMAC is the password), and the connection signs in as the token's owner. As in Kafka, whose SCRAM server throws a SaslException that its authenticator
 * answers with a generic message, no reply tells an unknown user from a wrong password; a known user asking for
 * another authorization id gets Kafka's own message.
 */
final class ScramServer {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_BYTES = 24;

    /**
     * What one round answered: the server's message, or a failure (with its own message where Kafka gives one,
     * else null for the generic one); and whether the exchange is over; for a token's sign-in, the token's expiry
     * time (Kafka's credential lifetime, which bounds the session), else null.
     */
    record Round(byte[] serverMessage, boolean failed, boolean complete, String user, boolean tokenAuthenticated,
                 String failureMessage, Long credentialExpiryMs) {
        static Round failure() {
            return failure(null);
        }

        static Round failure(String message) {
            return new Round(null, true, true, null, false, message, null);
        }
    }

    private final ScramMechanism mechanism;
    private final ScramCredentials credentials;
    private final DelegationTokens tokens;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private String user;
    private ScramCredential credential;
    /** The token's owner, when the client signs in with a delegation token; null otherwise. */
    private String tokenOwner;
    /** The token's expiry time when it was looked up, when the client signs in with one. */
    private Long tokenExpiryMs;

    ScramServer(ScramMechanism mechanism, ScramCredentials credentials, DelegationTokens tokens) {
        this.mechanism = mechanism;
        this.credentials = credentials;
        this.tokens = tokens;
    }

    Round evaluate(byte[] message) {
        String text = new String(message, StandardCharsets.UTF_8);
        return serverFirst == null ? clientFirst(text) : clientFinal(text);
    }

    private Round clientFirst(String message) {
        int flagEnd = message.indexOf(',');
        int headerEnd = flagEnd < 0 ? -1 : message.indexOf(',', flagEnd + 1);
        if (headerEnd < 0 || !message.startsWith("n,")) {
            return Round.failure(); // malformed, or channel binding ("y" or "p="), which Kafka's server refuses
        }
        gs2Header = message.substring(0, headerEnd + 1);
        String authorizationId = message.substring(flagEnd + 1, headerEnd);
        clientFirstBare = message.substring(headerEnd + 1);
        String[] attributes = clientFirstBare.split(",");
        if (attributes.length < 2 || !attributes[0].startsWith("n=") || !attributes[1].startsWith("r=")
                || attributes[1].length() == 2) {
            return Round.failure();
        }
        boolean tokenAuthentication = false;
        for (int i = 2; i < attributes.length; i++) { // extensions: Kafka heeds only tokenauth
            if (!attributes[i].contains("=")) {
                return Round.failure();
            }
            if (attributes[i].startsWith("tokenauth=")) { // Boolean.parseBoolean, as Kafka's ScramExtensions
                tokenAuthentication = attributes[i].substring("tokenauth=".length()).equalsIgnoreCase("true");
            }
        }
        user = unescapeName(attributes[0].substring(2));
        String requestedId = authorizationId.isEmpty() ? user
                : authorizationId.startsWith("a=") ? unescapeName(authorizationId.substring(2)) : null;
        if (user == null || user.isEmpty() || requestedId == null) {
            return Round.failure();
        }
        if (tokenAuthentication) {
            // Kafka: an unknown token id fails as an invalid credential does (the generic message).
            DelegationTokens.Held token = tokens.byId(user).orElse(null);
            tokenOwner = token == null ? null : token.token().owner().name();
            tokenExpiryMs = token == null ? null : token.token().expiryTimestamp();
            credential = token == null ? null : token.credentials().get(mechanism);
        } else {
            credential = credentials.get(user, mechanism).orElse(null);
        }
        if (credential == null) {
            return Round.failure();
        }
        if (!requestedId.equals(user)) {
            return Round.failure("Authentication failed: Client requested an authorization id that is different"
                    + " from username");
        }
        byte[] serverNonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(serverNonce);
        nonce = attributes[1].substring(2) + Base64.getEncoder().withoutPadding().encodeToString(serverNonce);
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credential.salt())
                + ",i=" + credential.iterations();
        return new Round(serverFirst.getBytes(StandardCharsets.UTF_8), false, false, null, false, null, null);
    }

    private Round clientFinal(String message) {
        int proofAt = message.lastIndexOf(",p=");
        if (proofAt < 0) {
            return Round.failure();
        }
        String withoutProof = message.substring(0, proofAt);
        String bindingAndNonce = "c=" + Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8))
                + ",r=";
        // As Kafka's server: the nonce must end with the one the server sent, not equal it, since librdkafka sends
        // its own nonce again in front of it.
        if (!withoutProof.startsWith(bindingAndNonce) || withoutProof.indexOf(',', bindingAndNonce.length()) >= 0
                || !withoutProof.endsWith(nonce)) {
            return Round.failure(); // another channel binding or nonce, or extensions
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(message.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            return Round.failure();
        }
        String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        byte[] clientSignature = mechanism.hmac(credential.storedKey(), authMessage);
        if (proof.length != clientSignature.length) {
            return Round.failure();
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        if (!MessageDigest.isEqual(mechanism.hash(clientKey), credential.storedKey())) {
            return Round.failure();
        }
        byte[] serverSignature = mechanism.hmac(credential.serverKey(), authMessage);
        String serverFinal = "v=" + Base64.getEncoder().encodeToString(serverSignature);
        return new Round(serverFinal.getBytes(StandardCharsets.UTF_8), false, true,
                tokenOwner != null ? tokenOwner : user, tokenOwner != null, null, tokenExpiryMs);
    }

    /** RFC 5802's saslname: "=2C" for ',' and "=3D" for '='; null if another '=' escape appears. */
    private static String unescapeName(String name) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '=') {
                out.append(c);
            } else if (name.startsWith("=2C", i)) {
                out.append(',');
                i += 2;
            } else if (name.startsWith("=3D", i)) {
                out.append('=');
                i += 2;
            } else {
                return null;
            }
        }
        return out.toString();
    }
}
