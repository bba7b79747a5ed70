package io.minibroker.broker.security;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.SaslAuthenticateRequestView;
import io.minibroker.protocol.message.view.SaslAuthenticateResponseView;
import io.minibroker.protocol.message.view.SaslHandshakeRequestView;
import io.minibroker.protocol.message.view.SaslHandshakeResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A client's SASL/PLAIN sign-in, for the broker's own connections to a SASL_PLAINTEXT listener (the controller,
 * a partition's leader, a container's readiness check): SaslHandshake v1 naming PLAIN, then one SaslAuthenticate,
 * on the connection before its first request, and again on it before the session the broker gave it ends (KIP-368).
 */
public record PlainLogin(String user, String password) {

    private static final short HANDSHAKE_VERSION = 1;
    private static final short AUTHENTICATE_VERSION = 2;

    /** One request and its response on the connection being signed in. */
    @FunctionalInterface
    public interface Exchange {
        Struct send(ApiKey api, short version, Struct body) throws IOException;
    }

    /**
     * Signs in on this connection, and answers the session's lifetime (0: none); IOException if the broker refuses
     * (an error code) or the stream fails.
     */
    public long authenticate(Exchange connection) throws IOException {
        SaslHandshakeResponseView handshake = new SaslHandshakeResponseView(connection.send(ApiKey.SASL_HANDSHAKE,
                HANDSHAKE_VERSION, new SaslHandshakeRequestView().mechanism(SaslSession.PLAIN).struct()));
        if (handshake.errorCode() != 0) {
            throw new IOException("the broker refused SASL/PLAIN: error " + handshake.errorCode());
        }
        byte[] token = ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
        SaslAuthenticateResponseView answer = new SaslAuthenticateResponseView(connection.send(ApiKey.SASL_AUTHENTICATE,
                AUTHENTICATE_VERSION, new SaslAuthenticateRequestView().authBytes(token).struct()));
        if (answer.errorCode() != 0) {
            throw new IOException("SASL/PLAIN authentication as " + user + " failed: " + answer.errorMessage());
        }
        return answer.sessionLifetimeMs();
    }

    /** Keeps the password out of logs and exceptions that print the record. */
    @Override
    public String toString() {
        return "PlainLogin[" + user + "]";
    }
}
