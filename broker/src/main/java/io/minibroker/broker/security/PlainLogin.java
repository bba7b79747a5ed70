package io.minibroker.broker.security;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A client's SASL/PLAIN sign-in, for the broker's own connections to a SASL_PLAINTEXT listener (the controller,
 * a partition's leader, a container's readiness check): SaslHandshake v1 naming PLAIN, then one SaslAuthenticate,
 * on a blocking socket before its first request.
 */
public record PlainLogin(String user, String password) {

    private static final short HANDSHAKE_VERSION = 1;
    private static final short AUTHENTICATE_VERSION = 2;

    /** Signs in on this connection; IOException if the broker refuses (an error code) or the stream fails. */
    public void authenticate(DataInputStream in, OutputStream out, String clientId) throws IOException {
        Struct handshake = roundTrip(in, out, clientId, ApiKey.SASL_HANDSHAKE, HANDSHAKE_VERSION,
                ApiKey.SASL_HANDSHAKE.request().newMessage().set("Mechanism", SaslSession.PLAIN));
        if (handshake.getInt16("ErrorCode") != 0) {
            throw new IOException("the broker refused SASL/PLAIN: error " + handshake.getInt16("ErrorCode"));
        }
        byte[] token = ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
        Struct answer = roundTrip(in, out, clientId, ApiKey.SASL_AUTHENTICATE, AUTHENTICATE_VERSION,
                ApiKey.SASL_AUTHENTICATE.request().newMessage().set("AuthBytes", token));
        if (answer.getInt16("ErrorCode") != 0) {
            throw new IOException("SASL/PLAIN authentication as " + user + " failed: " + answer.getString("ErrorMessage"));
        }
    }

    private static Struct roundTrip(DataInputStream in, OutputStream out, String clientId, ApiKey api, short version,
                                    Struct body) throws IOException {
        out.write(MessageCodec.encodeRequestToArray(new RequestHeader(api.id(), version, 0, clientId), body));
        out.flush();
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return MessageCodec.decodeResponse(Unpooled.wrappedBuffer(frame), api, version).body();
    }

    /** Keeps the password out of logs and exceptions that print the record. */
    @Override
    public String toString() {
        return "PlainLogin[" + user + "]";
    }
}
