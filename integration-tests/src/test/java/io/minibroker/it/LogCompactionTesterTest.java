package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.tools.LogCompactionTester;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's own check of log compaction (kafka-tools 4.3.1's LogCompactionTester, which Kafka's system tests run against
 * its brokers): it creates compacted topics, produces keys with many updates and some deletes (tombstones) while this
 * broker's cleaner compacts the rolled segments, consumes every topic from the start, and compares each key's last
 * value (or its deletion) consumed with the last one produced. Small segments and a cleaner that starts again at once
 * have the cleaner run during the production; the test asserts the tool's verdict, not how much was compacted (that
 * depends on how far the cleaner got, which the tool prints as its "reduction").
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LogCompactionTesterTest {

    @TempDir
    Path logDir;

    @Test
    void eachKeysLastValueOrDeletionIsReadBackFromTheCompactedTopics() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(logDir, Map.of("log.segment.bytes", "1048576",
                "log.cleaner.backoff.ms", "50", "log.cleaner.min.cleanable.ratio", "0.01"))) {
            String output = KafkaTool.run(LogCompactionTester.class, "--bootstrap-server", broker.bootstrapServers(),
                    "--messages", "100000", "--duplicates", "10", "--percent-deletes", "10", "--topics", "2",
                    "--sleep", "0");
            System.out.println(output); // the tool's figures, the reduction among them
            assertThat(output).containsPattern("Validated \\d+ values, 0 mismatches\\.")
                    .contains("Data verification is completed");
        }
    }
}
