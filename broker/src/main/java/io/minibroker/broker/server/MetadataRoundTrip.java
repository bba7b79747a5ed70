package io.minibroker.broker.server;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.security.PlainLogin;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;

import java.io.IOException;
import java.util.List;

/**
 * One Metadata request over a blocking socket ({@link NodeChannel}), answering with the brokers the broker
 * advertises: proof that a broker serves, and of the address it tells clients to use. Containers use it as their
 * readiness check (an open port proves little: Docker's proxy accepts before the broker listens) and
 * {@link SelfCheck} as its request.
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
        PlainLogin login = user == null ? null : new PlainLogin(user, password);
        try (NodeChannel channel = new NodeChannel(host, port, CLIENT_ID, SOCKET_TIMEOUT_MS,
                // One request on a fresh connection, from outside any broker: its session never needs renewing.
                new ClientSecurity(null, login, System::currentTimeMillis))) {
            MetadataResponseView response = new MetadataResponseView(channel.send(ApiKey.METADATA, VERSION,
                    new MetadataRequestView().topics(null).struct()));
            return response.brokers().stream().map(broker -> broker.host() + ":" + broker.port()).toList();
        }
    }
}
