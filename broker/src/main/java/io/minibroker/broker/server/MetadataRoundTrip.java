package io.minibroker.broker.server;

import io.minibroker.broker.security.PlainLogin;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/**
 * One Metadata request over a plain blocking socket, answering with the brokers the broker advertises: proof
 * that a broker serves, and of the address it tells clients to use. Containers use it as their readiness
 * check (an open port proves little: Docker's proxy accepts before the broker listens) and {@link SelfCheck}
 * as its request.
 */
public final class MetadataRoundTrip {

    /** Metadata v12: flexible, and the topics field may be null (no topics wanted). */
    private static final short VERSION = 12;
    private static final String CLIENT_ID = "minibroker-metadata-round-trip";
    private static final int SOCKET_TIMEOUT_MS = 2_000;

    private MetadataRoundTrip() {
    }

    /** The advertised {@code host:port} of every broker in the answer. */
    public static List<String> advertisedBrokers(String host, int port) throws IOException {
        return advertisedBrokers(host, port, null, null);
    }

    /**
     * The same on a SASL_PLAINTEXT listener: the connection first authenticates with SASL/PLAIN as {@code user}
     * (null: it does not); IOException if the broker refuses.
     */
    public static List<String> advertisedBrokers(String host, int port, String user, String password)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), SOCKET_TIMEOUT_MS);
            socket.setSoTimeout(SOCKET_TIMEOUT_MS);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            if (user != null) {
                new PlainLogin(user, password).authenticate(in, out, CLIENT_ID);
            }
            MetadataResponseView response = new MetadataResponseView(roundTrip(in, out, ApiKey.METADATA, VERSION,
                    ApiKey.METADATA.request().newMessage().set("Topics", null)));
            return response.brokers().stream().map(broker -> broker.host() + ":" + broker.port()).toList();
        }
    }

    private static Struct roundTrip(DataInputStream in, OutputStream out, ApiKey api, short version, Struct body)
            throws IOException {
        out.write(MessageCodec.encodeRequestToArray(
                new RequestHeader(api.id(), version, 1, CLIENT_ID), body));
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return MessageCodec.decodeResponse(Unpooled.wrappedBuffer(frame), api, version).body();
    }
}
