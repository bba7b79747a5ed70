package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.security.TestCertificates;
import io.minibroker.broker.server.Broker;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;
import static io.minibroker.broker.security.TestCertificates.BROKER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * kcat (librdkafka's TLS, OpenSSL) against an SSL listener that requires client certificates: with its PEM CA,
 * certificate and key it produces and consumes, the broker's host name checked; without a certificate it cannot
 * even read metadata. Skipped, saying so, where kcat is not installed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KcatTlsTest {

    private static final TestCertificates CERTIFICATES = TestCertificates.get();

    @TempDir
    Path logDir;

    @Test
    void kcatWithAClientCertificateProducesAndConsumesOverTls() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        Map<String, String> settings = new HashMap<>(CERTIFICATES.brokerSettings("", "PEM"));
        settings.putAll(Map.of("listeners", "SSL://localhost:0", "listener.security.protocol.map", "SSL:SSL",
                "inter.broker.listener.name", "SSL", "ssl.client.auth", "required"));
        try (Broker broker = EmbeddedBroker.start(logDir, settings).broker()) {
            String bootstrap = "localhost:" + broker.boundPort("SSL");
            List<String> tls = List.of("-X", "security.protocol=ssl",
                    "-X", "ssl.ca.location=" + CERTIFICATES.certificateFile(BROKER),
                    "-X", "ssl.endpoint.identification.algorithm=https",
                    "-X", "ssl.certificate.location=" + CERTIFICATES.certificateFile(ALICE),
                    "-X", "ssl.key.location=" + CERTIFICATES.privateKeyFile(ALICE));
            Commands.run("tls-1\ntls-2\n", command(List.of("kcat", "-b", bootstrap, "-P", "-t", "over-tls"), tls));
            String consumed = Commands.run("", command(List.of("kcat", "-b", bootstrap, "-C", "-t", "over-tls",
                    "-o", "beginning", "-e", "-q"), tls));
            assertThat(consumed.lines()).containsExactly("tls-1", "tls-2");

            assertThat(Commands.succeeds(command(List.of("kcat", "-b", bootstrap, "-L", "-m", "5"),
                    tls.subList(0, 6)))).as("kcat without a client certificate").isFalse();
        }
    }

    private static String[] command(List<String> base, List<String> options) {
        List<String> command = new ArrayList<>(base);
        command.addAll(options);
        return command.toArray(String[]::new);
    }
}
