package io.minibroker.it;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.EmbeddedBroker;

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
            String bootstrap = "localhost:" + broker.boundPort("SASL_PLAINTEXT");
            String[] sasl = {"-X", "security.protocol=SASL_PLAINTEXT", "-X", "sasl.mechanisms=PLAIN",
                    "-X", "sasl.username=alice", "-X", "sasl.password=alice-secret"};
            Commands.run("secret-1\nsecret-2\n", concat(new String[] {"kcat", "-b", bootstrap, "-P", "-t", "sasl"}, sasl));

            String consumed = Commands.run("", concat(new String[] {"kcat", "-b", bootstrap, "-C", "-t", "sasl",
                    "-o", "beginning", "-e", "-q"}, sasl));

            assertThat(consumed.lines()).containsExactly("secret-1", "secret-2");
        }
    }

    private static String[] concat(String[] first, String[] second) {
        String[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
