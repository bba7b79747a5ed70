package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.Broker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that is not Java: kcat, on librdkafka. CI installs it (Debian's package kcat); on a machine without
 * it the test is skipped, saying so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KcatSmokeTest {

    @TempDir
    Path logDir;

    @Test
    void kcatProducesWithEveryCompressionAndConsumesInOrder() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker()) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            List<String> expected = new ArrayList<>();
            for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
                String lines = codec + "-1\n" + codec + "-2\n";
                expected.add(codec + "-1");
                expected.add(codec + "-2");
                assertThat(Commands.run(lines, "kcat", "-b", bootstrap, "-P", "-t", "from-kcat", "-z", codec)).isEmpty();
            }

            String consumed = Commands.run("", "kcat", "-b", bootstrap, "-C", "-t", "from-kcat", "-o", "beginning", "-e", "-q");

            assertThat(consumed.lines()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void kcatsBalancedGroupConsumerJoinsAGroupAndReadsEverything() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker()) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            Commands.run("a\nb\nc\n", "kcat", "-b", bootstrap, "-P", "-t", "grouped");

            // -G: librdkafka's balanced consumer (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, OffsetFetch).
            String consumed = Commands.run("", "kcat", "-b", bootstrap, "-G", "kcat-group", "-o", "beginning", "-e", "-q",
                    "grouped");

            assertThat(consumed.lines()).containsExactly("a", "b", "c");
        }
    }

    @Test
    void kcatAuthenticatesWithSaslPlain() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of("listeners", "SASL_PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN", "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";"))
                .broker()) {
            assertThat(roundTripAuthenticated(broker, "PLAIN", "secret-1\nsecret-2\n"))
                    .containsExactly("secret-1", "secret-2");
        }
    }

    @Test
    void kcatAuthenticatesWithScramSha512() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0,PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "SCRAM-SHA-512")).broker();
             Admin admin = Admin.create(Map.of("bootstrap.servers", "localhost:" + broker.boundPort("PLAINTEXT")))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "alice-secret"))).all().get();

            assertThat(roundTripAuthenticated(broker, "SCRAM-SHA-512", "scram-1\n")).containsExactly("scram-1");
        }
    }

    /** Produces these lines with kcat as alice (password alice-secret) and reads its topic back, both signed in. */
    private static List<String> roundTripAuthenticated(Broker broker, String mechanism, String lines) throws Exception {
        String bootstrap = "localhost:" + broker.boundPort("SASL_PLAINTEXT");
        List<String> sasl = List.of("-X", "security.protocol=SASL_PLAINTEXT", "-X", "sasl.mechanisms=" + mechanism,
                "-X", "sasl.username=alice", "-X", "sasl.password=alice-secret");
        List<String> produce = new ArrayList<>(List.of("kcat", "-b", bootstrap, "-P", "-t", "authenticated"));
        produce.addAll(sasl);
        Commands.run(lines, produce.toArray(String[]::new));
        List<String> consume = new ArrayList<>(List.of("kcat", "-b", bootstrap, "-C", "-t", "authenticated",
                "-o", "beginning", "-e", "-q"));
        consume.addAll(sasl);
        return Commands.run("", consume.toArray(String[]::new)).lines().toList();
    }
}
