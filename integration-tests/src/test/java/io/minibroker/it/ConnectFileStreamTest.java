package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A distributed Kafka Connect 4.3.1 worker against the broker: a FileStreamSource connector copies a file into a
 * topic and a FileStreamSink copies the topic into another file; a restarted worker resumes both from the offsets
 * it stored in the broker (its offset topic and the sink's consumer group).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConnectFileStreamTest {

    private static final String TOPIC = "lines";

    @TempDir
    Path dir;

    @Test
    void everyLineArrivesOnceInOrderAndARestartedWorkerResumesFromItsStoredOffsets() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of())) {
            copyFileThroughTheBrokerAcrossARestart(kafka.bootstrapServers(), Map.of(), Map.of());
        }
    }

    @Test
    void exactlyOnceSourceTasksWriteEveryLineOnceInTransactionsAcrossARestart() throws Exception {
        // Kafka's defaults want three replicas of the transaction log; one node has one.
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of(
                "transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr", "1"))) {
            copyFileThroughTheBrokerAcrossARestart(kafka.bootstrapServers(),
                    Map.of("exactly.once.source.support", "enabled"),
                    Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        }
    }

    @Test
    void onThreeNodesWithKafkasDefaultReplicationTheExactlyOnceCopySurvivesARestart() throws Exception {
        // Three replicas of every internal topic: Connect's defaults and the transaction log's.
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("offsets.topic.replication.factor", "3"))) {
            copyFileThroughTheBrokerAcrossARestart(cluster.bootstrapServers(), Map.of(
                            "exactly.once.source.support", "enabled",
                            "config.storage.replication.factor", "3",
                            "offset.storage.replication.factor", "3",
                            "status.storage.replication.factor", "3"),
                    Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        }
    }

    @Test
    void twoWorkersShareTheConnectorsAndTheOneLeftTakesThemOverWithoutDuplicates() throws Exception {
        Path input = dir.resolve("input.txt");
        Path output = dir.resolve("output.txt");
        append(input, lines(0, 100));
        // Work of a worker that leaves is handed on at once, not after Connect's default 5 minutes' grace.
        Map<String, String> worker = Map.of("scheduled.rebalance.max.delay.ms", "0");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of());
             ConnectWorker staying = ConnectWorker.start(kafka.bootstrapServers(), "connect-pair", worker)) {
            try (ConnectWorker leaving = ConnectWorker.start(kafka.bootstrapServers(), "connect-pair", worker)) {
                leaving.putConnector("file-source", source(input));
                leaving.putConnector("file-sink", sink(output));
                Eventually.await(() -> staying.running("file-source", 1) && staying.running("file-sink", 1)
                                && union(staying.workersOf("file-source"), staying.workersOf("file-sink")).size() == 2,
                        "the two connectors and their tasks running, spread over both workers");
                awaitLines(output, 100);
            }
            append(input, lines(100, 200));
            Eventually.await(() -> staying.running("file-source", 1) && staying.running("file-sink", 1)
                            && union(staying.workersOf("file-source"), staying.workersOf("file-sink"))
                            .equals(Set.of(staying.workerId())),
                    () -> "everything running on " + staying.workerId() + "; " + staying.status("file-source")
                            + staying.status("file-sink"));
            awaitLines(output, 200);
        }
        assertThat(read(output)).containsExactlyElementsOf(lines(0, 200));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        return union;
    }

    private static Map<String, String> source(Path input) {
        return Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSourceConnector",
                "tasks.max", "1", "file", input.toString(), "topic", TOPIC);
    }

    private static Map<String, String> sink(Path output) {
        return Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector",
                "tasks.max", "1", "file", output.toString(), "topics", TOPIC);
    }

    /**
     * Writes 100 lines and copies them through the broker with a worker; reconfigures the source connector (a new
     * generation of its task, which with exactly-once support first fences out the old task's producer), writes 50
     * more and copies them; stops the worker, writes 50 more and copies those with a new worker on the same internal
     * topics: the topic and the output file must hold the 200 lines, each once and in order.
     */
    private void copyFileThroughTheBrokerAcrossARestart(String bootstrapServers, Map<String, String> worker,
                                                       Map<String, String> reader) {
        Path input = dir.resolve("input.txt");
        Path output = dir.resolve("output.txt");
        append(input, lines(0, 100));

        Map<String, String> source = source(input);
        try (ConnectWorker connect = ConnectWorker.start(bootstrapServers, "connect-file", worker)) {
            connect.putConnector("file-source", source);
            connect.putConnector("file-sink", sink(output));
            connect.awaitRunning("file-source", 1);
            connect.awaitRunning("file-sink", 1);
            awaitLines(output, 100);
            assertThat(read(output)).containsExactlyElementsOf(lines(0, 100));

            Map<String, String> reconfigured = new HashMap<>(source);
            reconfigured.put("batch.size", "1000"); // from its default 2000: new task configs, a new task
            connect.putConnector("file-source", reconfigured);
            append(input, lines(100, 150));
            awaitLines(output, 150);
        }
        assertThat(read(output)).as("the output file, after the reconfiguration")
                .containsExactlyElementsOf(lines(0, 150));

        append(input, lines(150, 200));
        try (ConnectWorker connect = ConnectWorker.start(bootstrapServers, "connect-file", worker)) {
            connect.awaitRunning("file-source", 1);
            connect.awaitRunning("file-sink", 1);
            awaitLines(output, 200);
        }
        assertThat(read(output)).as("the output file, after the restart").containsExactlyElementsOf(lines(0, 200));
        assertThat(Clients.readValues(bootstrapServers, reader, TOPIC, 200))
                .as("the topic").containsExactlyElementsOf(lines(0, 200));
    }

    private static List<String> lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "line " + i).toList();
    }

    private static void awaitLines(Path file, int count) {
        Eventually.await(() -> read(file).size() >= count, () -> count + " lines in " + file + "; " + read(file).size());
    }

    private static List<String> read(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void append(Path file, List<String> lines) {
        try {
            Files.write(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
