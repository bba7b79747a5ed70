package io.minibroker.broker.network;

import io.minibroker.broker.feature.FinalizedFeatures;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.security.SslEngineFactory;
import io.minibroker.broker.security.TestCertificates;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.security.TestCertificates.ALICE_DN;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The principal a request on an SSL listener carries in its RequestContext: the client certificate's
 * distinguished name mapped by {@code ssl.principal.mapping.rules}, ANONYMOUS without a certificate, and no
 * connection at all for a certificate no rule maps; and what the listener's metrics count of them, as Kafka's
 * selector. The client is this broker's own NodeChannel over TLS, which also checks the broker's certificate and
 * host name as inter-broker links do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsPrincipalTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    private final EventLoopGroup loop = new NioEventLoopGroup(1);
    private final List<KafkaPrincipal> seen = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void theCertificatesNameMappedByARuleIsThePrincipal() throws Exception {
        int port = serve(Map.of("ssl.client.auth", "required",
                "ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=clients,.*$/$1/U, DEFAULT"));
        ask(port, ALICE);
        assertThat(seen).containsExactly(KafkaPrincipal.user("ALICE"));
    }

    @Test
    void byDefaultTheDistinguishedNameIsThePrincipal() throws Exception {
        int port = serve(Map.of("ssl.client.auth", "requested"));
        ask(port, ALICE);
        assertThat(seen).containsExactly(KafkaPrincipal.user(ALICE_DN));
        assertThat(authenticationsWithoutReauthentication())
                .as("Kafka's selector counts an SSL connection's handshake as an authentication without re-auth")
                .isOne();
        assertThat(count("successful.authentication")).isOne();
        assertThat(count("failed.authentication")).isZero();
    }

    @Test
    void withoutACertificateTheConnectionIsAnonymous() throws Exception {
        int port = serve(Map.of("ssl.client.auth", "requested"));
        ask(port, null);
        assertThat(seen).containsExactly(KafkaPrincipal.ANONYMOUS);
    }

    @Test
    void aCertificateNoRuleMapsIsRefused() throws Exception {
        int port = serve(Map.of("ssl.client.auth", "required",
                "ssl.principal.mapping.rules", "RULE:^CN=([^,]+),OU=admins,.*$/$1/"));
        assertThatThrownBy(() -> ask(port, ALICE)).isInstanceOf(IOException.class);
        assertThat(seen).isEmpty();
        assertThat(count("successful.authentication"))
                .as("Kafka counts the handshake: it maps the certificate only at the first request").isOne();
        assertThat(authenticationsWithoutReauthentication()).isOne();
        assertThat(count("failed.authentication")).isZero();
    }

    /**
     * A handshake that fails in TLS is a failed authentication, as Kafka's SslAuthenticationException: bytes that are
     * not TLS, a client certificate the broker does not trust. A client that closes its connection during the
     * handshake is not (an IOException to Kafka).
     */
    @Test
    void aHandshakeThatFailsInTlsIsAFailedAuthentication() throws Exception {
        int port = serve(Map.of("ssl.client.auth", "required"));
        try (RawClient plaintext = new RawClient(port)) {
            plaintext.send(RawClient.apiVersions((short) 3, 1));
            assertThat(plaintext.closedByBroker()).isTrue();
        }
        await(() -> count("failed.authentication") == 1, "the plaintext connection counted");
        try (Socket quitter = new Socket("localhost", port)) {
            quitter.getOutputStream().write(new byte[] {0x16, 3, 3}); // the start of a TLS record, then nothing
            await(() -> connections() == 1, "the connection open");
        }
        await(() -> connections() == 0, "the connection closed");
        assertThat(count("failed.authentication")).as("closed by the client: not counted").isOne();
        assertThat(count("successful.authentication")).isZero();
    }

    private double count(String name) {
        return registry.get("kafka.server.socket.server.metrics." + name).tag("listener", "SSL").counter().count();
    }

    private double connections() {
        return registry.get("kafka.server.socket.server.metrics.connection.count").tag("listener", "SSL").gauge()
                .value();
    }

    private double authenticationsWithoutReauthentication() {
        return count("successful.authentication.no.reauth");
    }

    private int serve(Map<String, String> more) throws InterruptedException {
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "PKCS12"));
        settings.putAll(more);
        SslEngineFactory tls = SslEngineFactory.of(BrokerConfig.of(settings).sslSettings("SSL"), true);
        SupportedApis apis = new SupportedApis();
        ApiVersionsHandler versions = new ApiVersionsHandler(apis, "cluster", 1, FinalizedFeatures.mirror((short) 2));
        apis.add(ApiKey.API_VERSIONS, (context, request) -> {
            seen.add(context.principal());
            return versions.handle(context, request);
        });
        Channel server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelSetup(apis, "SSL", 1 << 20, 60_000,
                        new NetworkMetrics(registry, "SSL", List.of(ApiKey.API_VERSIONS),
                                BrokerClock.system()), null, tls, 10_000,
                        new ConnectionLimits(new ConnectionQuotas(Integer.MAX_VALUE, l -> Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of(),
                                Integer.MAX_VALUE, Integer.MAX_VALUE, () -> 0L, address -> 0), new MemoryBudget(1 << 21),
                                new MemoryBudget(1 << 21)), null, null))
                .bind(new InetSocketAddress("localhost", 0)).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** One ApiVersions over TLS, as {@code identity} (null: without a certificate). */
    private static void ask(int port, String identity) throws IOException {
        Map<String, String> client = new HashMap<>();
        CERTIFICATES.clientSettings("PKCS12", identity).forEach((key, value) -> client.put(key, value.toString()));
        SslEngineFactory tls = SslEngineFactory.of(BrokerConfig.of(client).sslSettings("SSL"), false);
        try (NodeChannel channel = new NodeChannel("localhost", port, "principal-test", 10_000,
                new ClientSecurity(tls, null, null))) {
            channel.send(ApiKey.API_VERSIONS, new ApiVersionsRequestView().clientSoftwareName("test")
                    .clientSoftwareVersion("1").struct());
        }
    }
}
