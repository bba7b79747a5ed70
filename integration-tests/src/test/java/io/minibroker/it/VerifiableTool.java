package io.minibroker.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.minibroker.broker.tools.KafkaToolProcess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One of the clients Apache Kafka's system tests drive (kafka-tools 4.3.1's VerifiableProducer, VerifiableConsumer,
 * TransactionalMessageCopier, VerifiableShareConsumer) running in a child JVM until it ends or is stopped, as
 * ducktape's services run them: the JSON line it prints per event is read as it comes, for the test to wait on and
 * to check afterwards, as the services' event handlers do.
 */
final class VerifiableTool implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long EXIT_SECONDS = 60;
    /** The JVM's exit after a SIGTERM (128 + 15), its shutdown hooks run. */
    static final int STOPPED = 143;
    /** The exit after a SIGKILL (128 + 9). */
    static final int KILLED = 137;

    private final String name;
    private final Process process;
    private final Path stderr;
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private volatile IOException readFailure;

    private VerifiableTool(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::read, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the tool with the kafka-clients of its release (kafka-tools 4.3.1 calls a class 4.4.0 moved). */
    static VerifiableTool start(Class<?> tool, String... args) throws IOException {
        Path stderr = Files.createTempFile(tool.getSimpleName(), ".err");
        stderr.toFile().deleteOnExit();
        Process process = KafkaToolProcess.processBuilder(KafkaTool.classPathWith("kafka.tools.clients.jar"), tool,
                Arrays.asList(args)).redirectError(stderr.toFile()).start();
        return new VerifiableTool(tool.getSimpleName(), process, stderr);
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                // The tools also print argparse's deprecation notes on standard output: only JSON lines are events.
                if (line.startsWith("{")) {
                    events.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            readFailure = e; // awaitExit fails on it: a lost line is a lost event
        }
    }

    /** The events so far named {@code name} (the verifiable clients' "name" field), in the order printed. */
    List<JsonNode> named(String name) {
        return named(Set.of(name));
    }

    /** The events so far with any of these names, in the order printed. */
    List<JsonNode> named(Set<String> names) {
        return events.stream().filter(event -> names.contains(event.path("name").asText())).toList();
    }

    /** The last event so far, or a missing node. */
    JsonNode last() {
        return events.isEmpty() ? JSON.missingNode() : events.get(events.size() - 1);
    }

    /** Waits for the tool to end by itself, failing unless it exits with 0; its output is then all read. */
    void awaitExit() throws Exception {
        awaitExit(0);
    }

    /**
     * Stops the tool as ducktape's clean shutdown does (SIGTERM: the tool's shutdown hook closes its clients and
     * prints its last events) and waits for its exit. A tool that may end by itself meanwhile exits 0 instead:
     * stop only one that cannot (a consumer, or a copier whose progress is held).
     */
    void stop() throws Exception {
        signalStop();
        awaitExit(STOPPED);
    }

    /**
     * SIGTERM without waiting ({@link #awaitExit(int)} with {@link #STOPPED} does). The signal goes through the
     * process handle: {@link Process#destroy()} also closes our end of the tool's standard output at once, losing
     * what the tool prints while it shuts down (its last records consumed, the commit it retries after the wakeup),
     * so the records it consumed last would look skipped.
     */
    void signalStop() {
        process.toHandle().destroy();
    }

    /**
     * Kills the tool as ducktape's hard shutdown does (SIGKILL: nothing of its clients is closed) without waiting
     * ({@link #awaitExit(int)} with {@link #KILLED} does). Through the process handle, as {@link #signalStop()}:
     * what it printed before the signal is still read.
     */
    void signalKill() {
        process.toHandle().destroyForcibly();
    }

    /** Waits for the tool's exit, failing unless it is {@code exit}; its output is then all read. */
    void awaitExit(int exit) throws Exception {
        if (!process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " still running after " + EXIT_SECONDS + " s: " + describe());
        }
        reader.join(TimeUnit.SECONDS.toMillis(EXIT_SECONDS));
        assertThat(readFailure).as("reading the output of " + name).isNull();
        assertThat(process.exitValue()).as("exit of " + name + ": " + describe()).isEqualTo(exit);
    }

    /** Its last event and standard error, for a failure's message. */
    String describe() {
        try {
            return "last event " + last() + ", stderr: " + Files.readString(stderr);
        } catch (IOException e) {
            return "last event " + last() + ", stderr unreadable: " + e;
        }
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(stderr);
    }
}
