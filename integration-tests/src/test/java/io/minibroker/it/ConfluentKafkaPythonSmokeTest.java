package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.security.TestCertificates;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * librdkafka as its newer users run it: confluent-kafka for Python 2.16.1, which bundles librdkafka 2.16.0, newer
 * than the kcat that KcatSmokeTest runs. Its all-topics Metadata request (v13) carries three bytes after the body,
 * which Kafka ignores. src/test/confluent-kafka-python/smoke.py: the admin client creates a topic, lists all
 * topics, describes the topic and the cluster; an idempotent lz4 producer; a group consumer that subscribes,
 * consumes and commits; the group's committed offsets. CI installs the package with pip from requirements.txt
 * there; on a machine where python3 cannot import it the test is skipped, saying so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConfluentKafkaPythonSmokeTest {

    private static final Path PROGRAM_DIR = Path.of("src", "test", "confluent-kafka-python");
    /** What smoke.py prints when everything worked. */
    private static final String EXPECTED = "{\"cluster_nodes\": 1, \"committed\": 10, \"controller_is_a_node\": true, "
            + "\"described_partitions\": 2, \"listed\": true, \"listed_brokers\": 1, \"listed_partitions\": 2, "
            + "\"values\": [\"v0\", \"v1\", \"v2\", \"v3\", \"v4\", \"v5\", \"v6\", \"v7\", \"v8\", \"v9\"]}";

    @TempDir
    Path logDir;

    @Test
    void confluentKafkaPythonAdministersProducesAndConsumesInAGroup() throws Exception {
        assumeInstalled();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            String output = Commands.run(PROGRAM_DIR, "", "python3", "smoke.py", kafka.bootstrapServers(),
                    "from-confluent-kafka-python");

            assertThat(output.strip()).isEqualTo(EXPECTED);
        }
    }

    /**
     * src/test/confluent-kafka-python/kip848.py: librdkafka's KIP-848 consumer ({@code group.protocol=consumer}),
     * one reading everything and committing, then a second sharing the partitions, never one held by both.
     */
    @Test
    void confluentKafkaPythonConsumesInAConsumerProtocolGroup() throws Exception {
        assumeInstalled();
        Assumptions.assumeTrue(Commands.succeeds("python3", "-c", "import confluent_kafka"),
                "confluent-kafka is not installed; skipping");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.consumer.heartbeat.interval.ms",
                "500", "group.consumer.min.heartbeat.interval.ms", "500"))) {
            String output = Commands.run(PROGRAM_DIR, "", "python3", "kip848.py", kafka.bootstrapServers(),
                    "kip848-group");

            assertThat(output.strip()).isEqualTo("{\"both_held\": 0, \"committed\": 40, \"read\": 40, "
                    + "\"split\": [2, 2], \"type\": \"consumer\"}");
        }
    }

    /**
     * src/test/confluent-kafka-python/migrate.py: KIP-848's online migration with librdkafka: a classic group of two
     * consumers upgraded when a {@code group.protocol=consumer} consumer joins, downgraded when it leaves; every
     * record read, no partition ever held by two consumers, the partitions spread at each stage.
     */
    @Test
    void confluentKafkaPythonClassicGroupIsUpgradedAndDowngradedOnline() throws Exception {
        assumeInstalled();
        Assumptions.assumeTrue(Commands.succeeds("python3", "-c", "import confluent_kafka"),
                "confluent-kafka is not installed; skipping");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.consumer.heartbeat.interval.ms",
                "300", "group.consumer.min.heartbeat.interval.ms", "300", "group.initial.rebalance.delay.ms", "0"))) {
            String output = Commands.run(PROGRAM_DIR, "", "python3", "migrate.py", kafka.bootstrapServers(),
                    "migrate-group");

            assertThat(output.strip()).isEqualTo("{\"both_held\": 0, \"ends\": [[2, 2], [1, 1, 2], [2, 2]], "
                    + "\"read\": 120, \"types\": [\"classic\", \"consumer\", \"classic\"]}");
        }
    }

    /**
     * src/test/confluent-kafka-python/transactions.py: librdkafka's transactional producer commits five records and
     * aborts five; read_committed sees only the committed ones, read_uncommitted all ten; a consume-transform-produce
     * step with send_offsets_to_transaction writes the committed input upper-cased and commits the group's offset
     * (5: the position after the last committed record; the marker at 5 is not read yet) in the same transaction.
     */
    @Test
    void confluentKafkaPythonCommitsAndAbortsTransactions() throws Exception {
        assumeInstalled();
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"))) {
            kafka.controls().requestLog().start();
            String output = Commands.run(PROGRAM_DIR, "", "python3", "transactions.py", kafka.bootstrapServers(),
                    "txn-input", "txn-output");

            // librdkafka (2.16) sends AddPartitionsToTxn and Produce below v12: transaction version 1.
            assertThat(TransactionVersionOnTheWire.used(kafka.controls().requestLog())).isEqualTo(1);

            assertThat(output.strip()).isEqualTo("{\"group_committed\": 5, "
                    + "\"sink_read_committed\": [\"C0\", \"C1\", \"C2\", \"C3\", \"C4\"], "
                    + "\"source_read_committed\": [\"c0\", \"c1\", \"c2\", \"c3\", \"c4\"], "
                    + "\"source_read_uncommitted\": [\"c0\", \"c1\", \"c2\", \"c3\", \"c4\", "
                    + "\"a0\", \"a1\", \"a2\", \"a3\", \"a4\"]}");
        }
    }

    /**
     * The same over an SSL listener that requires client certificates, with the PEM files librdkafka reads: its
     * Fetch responses are the copied file regions of a TLS connection.
     */
    @Test
    void confluentKafkaPythonOverTlsWithAClientCertificate() throws Exception {
        assumeInstalled();
        TestCertificates certificates = TestCertificates.get();
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings("", "PEM"));
        settings.putAll(Map.of("group.initial.rebalance.delay.ms", "0", "listeners", "SSL://localhost:0",
                "listener.security.protocol.map", "SSL:SSL", "inter.broker.listener.name", "SSL",
                "ssl.client.auth", "required"));
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, settings)) {
            String output = Commands.run(PROGRAM_DIR, "", "python3", "smoke.py", kafka.bootstrapServers(),
                    "over-tls", "security.protocol=ssl",
                    "ssl.ca.location=" + certificates.certificateFile(TestCertificates.BROKER),
                    "ssl.certificate.location=" + certificates.certificateFile(TestCertificates.ALICE),
                    "ssl.key.location=" + certificates.privateKeyFile(TestCertificates.ALICE));

            assertThat(output.strip()).isEqualTo(EXPECTED);
        }
    }

    /**
     * src/test/confluent-kafka-python/reauth.py: librdkafka re-authenticates its connections (KIP-368) when the
     * broker gives its SASL sessions a lifetime ({@code connections.max.reauth.ms}), and keeps producing without an
     * error. (Debian's kcat links librdkafka 2.0.2, from before its KIP-368 support: its connections are closed at
     * their sessions' end and opened again, on Kafka as here.)
     */
    @Test
    void confluentKafkaPythonReauthenticatesItsSaslConnections() throws Exception {
        assumeInstalled();
        Map<String, String> settings = Map.of("listeners", "SASL_PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";",
                "connections.max.reauth.ms", "2000");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, settings)) {
            String output = Commands.run(PROGRAM_DIR, "", "python3", "reauth.py", kafka.bootstrapServers(),
                    "reauthenticated", "alice", "alice-secret");

            assertThat(output.strip())
                    .isEqualTo("{\"all_delivered\": true, \"errors\": [], \"reauthenticated_twice\": true}");
        }
    }

    private static void assumeInstalled() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("python3"), "python3 is not installed; skipping");
        Assumptions.assumeTrue(Commands.succeeds("python3", "-c", "import confluent_kafka"),
                "confluent-kafka is not installed (python3 -m pip install -r "
                        + "integration-tests/src/test/confluent-kafka-python/requirements.txt); skipping");
    }
}
