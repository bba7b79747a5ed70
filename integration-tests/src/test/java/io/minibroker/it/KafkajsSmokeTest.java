package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that shares no code with Kafka's Java client or librdkafka: kafkajs 2.2.4 on Node.js, which asks for
 * older API versions than either (src/test/kafkajs/smoke.js: create a topic, an idempotent gzip producer, a group
 * consumer, the group's committed offsets). CI installs Node.js and runs {@code npm ci} in that folder; on a
 * machine without them the test is skipped, saying so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkajsSmokeTest {

    private static final Path SCRIPT_DIR = Path.of("src", "test", "kafkajs");

    @TempDir
    Path logDir;

    private static final String EXPECTED = "{\"partitions\":2,\"values\":[\"v0\",\"v1\",\"v2\",\"v3\",\"v4\","
            + "\"v5\",\"v6\",\"v7\",\"v8\",\"v9\"],\"committed\":10}";

    @Test
    void kafkajsCreatesProducesIdempotentlyAndConsumesInAGroup() throws Exception {
        assumeKafkajs();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            assertThat(smoke(kafka, "from-kafkajs")).isEqualTo(EXPECTED);
        }
    }

    @Test
    void kafkajsDoesTheSameAuthenticatedWithSaslPlain() throws Exception {
        assumeKafkajs();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "listeners", "SASL_PLAINTEXT://localhost:0", "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";"))) {
            assertThat(smoke(kafka, "from-kafkajs-sasl", "alice", "alice-secret")).isEqualTo(EXPECTED);
        }
    }

    /**
     * src/test/kafkajs/transactions.js: a transactional producer commits five records and aborts five; a
     * readUncommitted: false consumer sees only the committed ones, a readUncommitted: true one all ten; a second
     * transaction writes the input upper-cased and commits the group's offset with sendOffsets.
     */
    @Test
    void kafkajsCommitsAndAbortsTransactions() throws Exception {
        assumeKafkajs();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            kafka.controls().requestLog().start();
            String output = Commands.run(SCRIPT_DIR, "", "node", "--dns-result-order=ipv4first", "transactions.js",
                    kafka.bootstrapServers(), "txn-input", "txn-output").strip();

            // kafkajs 2.2.4 predates KIP-890: transaction version 1 whatever the broker finalizes (2 here).
            assertThat(TransactionVersionOnTheWire.used(kafka.controls().requestLog())).isEqualTo(1);

            assertThat(output).isEqualTo("{\"source_read_committed\":[\"c0\",\"c1\",\"c2\",\"c3\",\"c4\"],"
                    + "\"source_read_uncommitted\":[\"c0\",\"c1\",\"c2\",\"c3\",\"c4\",\"a0\",\"a1\",\"a2\",\"a3\","
                    + "\"a4\"],\"sink_read_committed\":[\"C0\",\"C1\",\"C2\",\"C3\",\"C4\"],"
                    + "\"group_committed\":5}");
        }
    }

    private static void assumeKafkajs() {
        Assumptions.assumeTrue(Commands.onPath("node"), "Node.js is not installed (apt-get install nodejs); skipping");
        Assumptions.assumeTrue(Files.isDirectory(SCRIPT_DIR.resolve("node_modules").resolve("kafkajs")),
                "kafkajs is not installed (npm ci --prefix integration-tests/src/test/kafkajs); skipping");
    }

    /** smoke.js's one line of output; {@code credentials}, if any, a user name and password for SASL/PLAIN. */
    private static String smoke(EmbeddedBroker kafka, String topic, String... credentials) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "--dns-result-order=ipv4first", "smoke.js",
                kafka.bootstrapServers(), topic));
        command.addAll(List.of(credentials));
        // The broker listens on IPv4; Node before 20 would try only ::1 where localhost also names that.
        return Commands.run(SCRIPT_DIR, "", command.toArray(String[]::new)).strip();
    }
}
