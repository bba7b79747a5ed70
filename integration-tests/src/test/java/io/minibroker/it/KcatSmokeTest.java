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
}
