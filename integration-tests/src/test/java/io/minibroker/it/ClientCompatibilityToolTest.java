package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.tools.ClientCompatibilityTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-tools 4.3.1's ClientCompatibilityTest, which Kafka's system tests run to check what a client can do against a
 * broker: it produces and consumes (offsetsForTimes, a record larger than {@code max.partition.fetch.bytes} read
 * whole, KIP-74), checks the cluster id and the nodes the Admin client sees, creates and lists topics, describes ACLs
 * and configs and produces idempotently, each expected here to be supported, as a Kafka 4.3.1 node answers
 * (run by hand with the same arguments: "SUCCESS.", exit 0).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientCompatibilityToolTest {

    @TempDir
    Path logDir;

    @Test
    void everyFeatureTheToolChecksIsSupportedAsByAKafka431Node() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(logDir, Map.of())) {
            String output = KafkaTool.run(ClientCompatibilityTest.class, "--bootstrap-server",
                    broker.bootstrapServers(), "--topic", "compat", "--offsets-for-times-supported", "true",
                    "--cluster-id-supported", "true", "--expect-record-too-large-exception", "false",
                    "--num-cluster-nodes", "1", "--create-topics-supported", "true", "--describe-acls-supported",
                    "true", "--describe-configs-supported", "true", "--idempotent-producer-supported", "true");
            assertThat(output.lines()).contains("SUCCESS.");
        }
    }
}
