package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.tools.ClientMetricsCommand;
import org.apache.kafka.tools.FeatureCommand;
import org.apache.kafka.tools.MetadataQuorumCommand;
import org.apache.kafka.tools.TopicCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-features.sh, kafka-metadata-quorum.sh and kafka-topics.sh (kafka-tools 4.3.1, in a child JVM as the scripts
 * run them) against one broker. The expected text is what the same commands printed against a Kafka 4.3.1 node
 * formatted with its defaults, but where noted.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AdminToolsCommandTest {

    /**
     * kafka-client-metrics.sh: each command printed what it printed against a Kafka 4.3.1 node (2026-11-28), with the
     * same exit code; a refusal's message is the broker's, Kafka's ClientMetricsConfigs' words.
     */
    @Test
    void clientMetricsAltersDescribesListsAndDeletesAsAKafka431Node() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--describe",
                    "--name", "cpu"))
                    .isEqualTo("The client metric resource cpu doesn't exist and doesn't have dynamic config.\n");
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--alter",
                    "--name", "cpu", "--metrics", "org.apache.kafka.producer.,org.apache.kafka.consumer.",
                    "--interval", "1000", "--match", "client_id=app.*"))
                    .isEqualTo("Altered client metrics config for cpu.\n");
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--describe"))
                    .isEqualTo("""
                    Client metrics configs for cpu are:
                      interval.ms=1000
                      match=client_id=app.*
                      metrics=org.apache.kafka.producer.,org.apache.kafka.consumer.
                    """);
            assertThat(KafkaTool.runExiting(1, ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--alter",
                    "--name", "cpu", "--interval", "50")).isEqualTo("Error while executing client metrics command : "
                    + "Invalid value 50 for interval.ms, interval must be between 100 and 3600000 (1 hour)\n");
            assertThat(KafkaTool.runExiting(1, ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--alter",
                    "--name", "cpu", "--match", "client_id=[")).isEqualTo(
                    "Error while executing client metrics command : Illegal client matching pattern: client_id=[\n");
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--list"))
                    .isEqualTo("cpu\n");
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--delete",
                    "--name", "cpu")).isEqualTo("Deleted client metrics config for cpu.\n");
            assertThat(KafkaTool.run(ClientMetricsCommand.class, "--bootstrap-server", bootstrap, "--list"))
                    .as("an empty line, as Kafka's").isEqualTo("\n");
        }
    }

    @Test
    void featuresDescribeAsAKafka431NodeAtItsDefaultsButTheEpoch() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            String described = toolLines(KafkaTool.run(FeatureCommand.class, "--bootstrap-server",
                    broker.bootstrapServers(), "describe"), "Feature: ");

            // Kafka's epoch is the offset of its metadata log (20 on the node checked); here the count of updates.
            assertThat(described.replaceAll("Epoch: \\d+", "Epoch: N")).isEqualTo(String.join("\n",
                    feature("eligible.leader.replicas.version", "0", "1", "1"),
                    feature("group.version", "0", "1", "1"),
                    feature("kraft.version", "0", "1", "0"),
                    feature("metadata.version", "3.3-IV3", "4.3-IV0", "4.3-IV0"),
                    feature("share.version", "0", "1", "1"),
                    feature("streams.version", "0", "1", "1"),
                    feature("transaction.version", "0", "2", "2")) + "\n");

            KafkaTool.run(FeatureCommand.class, "--bootstrap-server", broker.bootstrapServers(), "downgrade",
                    "--feature", "transaction.version=1");
            assertThat(toolLines(KafkaTool.run(FeatureCommand.class, "--bootstrap-server",
                    broker.bootstrapServers(), "describe"), "Feature: ")).contains(feature("transaction.version", "0", "2", "1").replace("Epoch: N", "Epoch: 1"));
        }
    }

    /**
     * A dry run and refusals, each printing what it printed against a Kafka 4.3.1 node at its defaults (2026-11-28;
     * the refusals' summary, "1 out of 1 operation(s) failed.", is on standard error). The tool's version-mapping
     * and feature-dependencies ask no broker.
     */
    @Test
    void featuresDryRunAndRefusalsAsAKafka431Node() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            assertThat(KafkaTool.run(FeatureCommand.class, "--bootstrap-server", bootstrap, "downgrade",
                    "--feature", "transaction.version=1", "--dry-run"))
                    .isEqualTo("transaction.version can be downgraded to 1.\n");
            assertThat(KafkaTool.runExiting(1, FeatureCommand.class, "--bootstrap-server", bootstrap, "downgrade",
                    "--metadata", "4.0-IV3", "--dry-run")).isEqualTo("""
                     `metadata` flag is deprecated and may be removed in a future release.
                    Can not downgrade metadata.version to 25. The update failed for all features since the following \
                    feature had an error: Unsupported metadata.version downgrade from 30 to 25. Refusing to perform \
                    the requested downgrade because it might delete metadata information.
                    """);
            assertThat(KafkaTool.runExiting(1, FeatureCommand.class, "--bootstrap-server", bootstrap, "upgrade",
                    "--feature", "share.version=5", "--feature", "foo.version=1", "--dry-run")).isEqualTo("""
                    Can not upgrade foo.version to 1. The update failed for all features since the following \
                    feature had an error: Invalid update version 5 for feature share.version. Local controller 1 \
                    only supports versions 0-1
                    Can not upgrade share.version to 5. The update failed for all features since the following \
                    feature had an error: Invalid update version 5 for feature share.version. Local controller 1 \
                    only supports versions 0-1
                    """);
        }
    }

    @Test
    void metadataQuorumDescribesTheNodeAsItsOnlyVoter() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of())) {
            String status = toolLines(KafkaTool.run(MetadataQuorumCommand.class, "--bootstrap-server",
                    broker.bootstrapServers(), "describe", "--status"),
                    "(ClusterId|LeaderId|LeaderEpoch|HighWatermark|MaxFollowerLag|MaxFollowerLagTimeMs|CurrentVoters"
                            + "|CurrentObservers):.*");

            int port = Integer.parseInt(broker.bootstrapServers().replaceAll(".*:", ""));
            assertThat(status.lines().map(line -> line.replaceAll("^(ClusterId|HighWatermark):( +).*", "$1:$2X")))
                    .containsExactly("ClusterId:              X", "LeaderId:               1",
                            "LeaderEpoch:            1", "HighWatermark:          X", "MaxFollowerLag:         0",
                            "MaxFollowerLagTimeMs:   0",
                            // A single node has no controller listener: its own listener names the voter.
                            "CurrentVoters:          [{\"id\": 1, \"endpoints\": [\"PLAINTEXT://localhost:" + port
                                    + "\"]}]",
                            "CurrentObservers:       []");

            List<String> replication = toolLines(KafkaTool.run(MetadataQuorumCommand.class, "--bootstrap-server",
                    broker.bootstrapServers(), "describe", "--replication"), "(NodeId|\\d+ *)\t.*").lines().toList();
            assertThat(replication.get(0).split("\t")).containsExactly("NodeId", "DirectoryId           ",
                    "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status");
            assertThat(replication).hasSize(2);
            assertThat(replication.get(1).split("\t")[0].trim()).isEqualTo("1");
            assertThat(replication.get(1).split("\t")[1].trim()).isEqualTo("AAAAAAAAAAAAAAAAAAAAAA");
            assertThat(replication.get(1).split("\t")[6].trim()).isEqualTo("Leader");
        }
    }

    @Test
    void topicsDescribeGoesThroughDescribeTopicPartitions() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of())) {
            String bootstrap = broker.bootstrapServers();
            KafkaTool.run(TopicCommand.class, "--bootstrap-server", bootstrap, "--create", "--topic", "a",
                    "--partitions", "2", "--replication-factor", "1");
            List<String> described = toolLines(KafkaTool.run(TopicCommand.class, "--bootstrap-server", bootstrap,
                    "--describe", "--topic", "a"), "\t?Topic: a\t.*").lines().toList();

            // The Elr and LastKnownElr columns are printed only from DescribeTopicPartitions' answer.
            assertThat(described.subList(1, 3)).containsExactly(
                    "\tTopic: a\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ",
                    "\tTopic: a\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\tElr: \tLastKnownElr: ");
            assertThat(described.get(0)).startsWith("Topic: a\tTopicId: ")
                    .contains("\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: ");
        }
    }

    /**
     * The tool's own lines, those matching {@code pattern} (or starting with it when it has no pattern syntax): the
     * admin client's log lines and config dump share its output.
     */
    private static String toolLines(String output, String pattern) {
        String regex = pattern.endsWith(".*") ? pattern : java.util.regex.Pattern.quote(pattern) + ".*";
        return output.lines().filter(line -> line.matches(regex)).map(line -> line + "\n")
                .collect(java.util.stream.Collectors.joining());
    }

    private static String feature(String name, String min, String max, String finalized) {
        return String.format("Feature: %-42sSupportedMinVersion: %-17sSupportedMaxVersion: %-17s"
                + "FinalizedVersionLevel: %-17sEpoch: N", name, min, max, finalized);
    }
}
