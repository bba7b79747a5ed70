package io.minibroker.broker.security;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SCRAM exchange against a client written from RFC 5802 here: what passes, what is refused, and the server's
 * final signature, which a client checks to know it spoke to a server holding the credential.
 */
class ScramServerTest {

    private static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_256;
    private static final byte[] SALT = "a-salt-of-the-test".getBytes(StandardCharsets.UTF_8);
    private static final int ITERATIONS = 4096;

    @TempDir
    Path dir;
    private ScramCredentials credentials;

    @BeforeEach
    void setUp() throws Exception {
        credentials = ScramCredentials.open(dir);
        credentials.apply(List.of(new ScramCredentials.Change("a,b=c", MECHANISM,
                MECHANISM.credential(SALT, saltedPassword("secret"), ITERATIONS))));
    }

    @Test
    void theRightPasswordCompletesWithTheServersSignature() {
        Client client = new Client("a,b=c", "secret");
        ScramServer server = server();

        ScramServer.Round first = server.evaluate(client.first());
        assertThat(first.failed()).isFalse();
        String serverFirst = new String(first.serverMessage(), StandardCharsets.UTF_8);
        assertThat(serverFirst).startsWith("r=" + client.nonce).contains(",s=" + Base64.getEncoder().encodeToString(SALT))
                .endsWith(",i=4096");

        ScramServer.Round last = server.evaluate(client.last(serverFirst, ""));
        assertThat(last.failed()).isFalse();
        assertThat(last.complete()).isTrue();
        assertThat(last.user()).as("the escaped name, unescaped").isEqualTo("a,b=c");
        assertThat(new String(last.serverMessage(), StandardCharsets.UTF_8)).isEqualTo("v=" + client.serverSignature);
    }

    @Test
    void aNonceWithTheClientsOwnInFrontIsTakenAsKafkaTakesIt() {
        Client client = new Client("a,b=c", "secret");
        ScramServer server = server();
        String serverFirst = new String(server.evaluate(client.first()).serverMessage(), StandardCharsets.UTF_8);

        assertThat(server.evaluate(client.last(serverFirst, client.nonce)).complete()).isTrue();
    }

    @Test
    void aWrongPasswordAnUnknownUserAndMalformedMessagesFail() {
        assertThat(exchange(new Client("a,b=c", "wrong"), "")).isFalse();
        assertThat(exchange(new Client("nobody", "secret"), "")).isFalse();
        ScramServer server = server();
        assertThat(server.evaluate("p=tls-unique,,n=a=2Cb=3Dc,r=x".getBytes(StandardCharsets.UTF_8)).failed())
                .as("channel binding").isTrue();
        assertThat(server().evaluate("y,,n=a=2Cb=3Dc,r=x"
                .getBytes(StandardCharsets.UTF_8)).failed()).as("channel binding supported by the client").isTrue();
        assertThat(server().evaluate("n,,n=a=2Cb=3Dc,r=x,ext=1"
                .getBytes(StandardCharsets.UTF_8)).failed()).as("an unknown extension is ignored").isFalse();
        assertThat(server().evaluate("n,,n=a=2Cb=3Dc,r=x,tokenauth=true"
                .getBytes(StandardCharsets.UTF_8)).failed()).as("an unknown delegation token").isTrue();
        ScramServer.Round otherId = server().evaluate("n,a=other,n=a=2Cb=3Dc,r=x"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(otherId.failed()).as("another authorization id").isTrue();
        assertThat(otherId.failureMessage()).isEqualTo("Authentication failed: Client requested an authorization id that is"
                + " different from username");
        assertThat(server().evaluate("n,a=a=2Cb=3Dc,n=a=2Cb=3Dc,r=x"
                .getBytes(StandardCharsets.UTF_8)).failed()).as("its own name as authorization id").isFalse();
        assertThat(server().evaluate("garbage".getBytes(StandardCharsets.UTF_8))
                .failed()).isTrue();
        ScramServer.Round badEscape = server().evaluate("n,a=x=ZZ,n=a=2Cb=3Dc,r=x"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(badEscape.failed()).as("an authorization id with a bad escape fails the exchange").isTrue();
        assertThat(badEscape.failureMessage()).as("with the generic answer").isNull();

        Client client = new Client("a,b=c", "secret");
        ScramServer another = server();
        String serverFirst = new String(another.evaluate(client.first()).serverMessage(), StandardCharsets.UTF_8);
        String forged = new String(client.last(serverFirst, ""), StandardCharsets.UTF_8).replace("r=" + client.nonce,
                "r=" + client.nonce + "x");
        assertThat(another.evaluate(forged.getBytes(StandardCharsets.UTF_8)).failed()).as("another nonce").isTrue();
    }

    private boolean exchange(Client client, String noncePrefix) {
        ScramServer server = server();
        ScramServer.Round first = server.evaluate(client.first());
        if (first.failed()) {
            return false;
        }
        return !server.evaluate(client.last(new String(first.serverMessage(), StandardCharsets.UTF_8), noncePrefix))
                .failed();
    }

    private ScramServer server() {
        return new ScramServer(MECHANISM, credentials, DelegationTokens.disabled());
    }

    private static byte[] saltedPassword(String password) {
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(new PBEKeySpec(password.toCharArray(), SALT, ITERATIONS, 256)).getEncoded();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A SCRAM client, straight from RFC 5802's formulas. */
    private static final class Client {
        private final String user;
        private final String password;
        private final String nonce = "fyko+d2lbbFgONRv9qkxdawL";
        private String serverSignature;

        Client(String user, String password) {
            this.user = user;
            this.password = password;
        }

        private String bare() {
            return "n=" + user.replace("=", "=3D").replace(",", "=2C") + ",r=" + nonce;
        }

        byte[] first() {
            return ("n,," + bare()).getBytes(StandardCharsets.UTF_8);
        }

        byte[] last(String serverFirst, String noncePrefix) {
            String fullNonce = serverFirst.substring(2, serverFirst.indexOf(','));
            String withoutProof = "c=biws,r=" + noncePrefix + fullNonce;
            String authMessage = bare() + "," + serverFirst + "," + withoutProof;
            byte[] salted = saltedPassword(password);
            byte[] clientKey = MECHANISM.hmac(salted, "Client Key");
            byte[] signature = MECHANISM.hmac(MECHANISM.hash(clientKey), authMessage);
            byte[] proof = new byte[clientKey.length];
            for (int i = 0; i < proof.length; i++) {
                proof[i] = (byte) (clientKey[i] ^ signature[i]);
            }
            serverSignature = Base64.getEncoder().encodeToString(
                    MECHANISM.hmac(MECHANISM.hmac(salted, "Server Key"), authMessage));
            return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
        }
    }
}
