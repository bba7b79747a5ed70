package io.minibroker.broker.server;

import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.IOException;
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
    private static final int SOCKET_TIMEOUT_MS = 2_000;

    private MetadataRoundTrip() {
    }

    /** The advertised {@code host:port} of every broker in the answer. */
    public static List<String> advertisedBrokers(String host, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), SOCKET_TIMEOUT_MS);
            socket.setSoTimeout(SOCKET_TIMEOUT_MS);
            socket.getOutputStream().write(request());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            MetadataResponseView response = new MetadataResponseView(
                    MessageCodec.decodeResponse(Unpooled.wrappedBuffer(frame), ApiKey.METADATA, VERSION).body());
            return response.brokers().stream().map(broker -> broker.host() + ":" + broker.port()).toList();
        }
    }

    private static byte[] request() {
        return MessageCodec.encodeRequestToArray(
                new RequestHeader(ApiKey.METADATA.id(), VERSION, 1, "minibroker-metadata-round-trip"),
                ApiKey.METADATA.request().newMessage().set("Topics", null));
    }
}
