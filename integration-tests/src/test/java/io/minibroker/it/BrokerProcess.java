package io.minibroker.it;

import io.minibroker.broker.server.Main;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker in a child JVM, on the test's class path, started by {@code Main} as {@code bin/minibroker} would:
 * for what only a process shows (a kill -9, a signal, an exit status). Its output is kept, line by line, and so
 * is the port each of its listeners bound, by listener name.
 */
record BrokerProcess(Process process, Map<String, Integer> ports, List<String> output, Thread outputReader) {

    private static final Pattern LISTENING = Pattern.compile("Listening on \\S*:(\\d+) \\((\\w+)\\)");
    private static final Pattern STARTED = Pattern.compile("minibroker node \\d+ of cluster \\S+ started");
    private static final Pattern BIND_FAILED =
            Pattern.compile("^Exception in thread \"main\" java\\.net\\.BindException");

    /** Starts a single-node broker from {@code config/server.properties} on {@code logDir}, on a free port. */
    static BrokerProcess start(Path logDir, String... overrides) throws IOException {
        // advertised.listeners with port 0 is advertised with the bound port, so clients reach the child.
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("log.dirs", logDir.toString());
        settings.put("listeners", "PLAINTEXT://localhost:0");
        settings.put("advertised.listeners", "PLAINTEXT://localhost:0");
        for (String override : overrides) {
            int eq = override.indexOf('=');
            settings.put(override.substring(0, eq), override.substring(eq + 1));
        }
        return start(Path.of("..", "config", "server.properties"), settings);
    }

    /**
     * Starts a broker from {@code configFile} with each override passed as {@code --override key=value}, and
     * returns once it says it has started; throws {@link BindException} if it ended because a listener's port was
     * taken.
     */
    static BrokerProcess start(Path configFile, Map<String, String> overrides) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), configFile.toString()));
        overrides.forEach((key, value) -> {
            command.add("--override");
            command.add(key + "=" + value);
        });
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        List<String> output = new CopyOnWriteArrayList<>();
        Map<String, Integer> ports = new LinkedHashMap<>();
        String line;
        while ((line = reader.readLine()) != null) {
            output.add(line);
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                ports.put(listening.group(2), Integer.parseInt(listening.group(1)));
            }
            if (STARTED.matcher(line).find()) {
                Thread outputReader = new Thread(() -> reader.lines().forEach(output::add));
                outputReader.setDaemon(true);
                outputReader.start();
                return new BrokerProcess(process, Map.copyOf(ports), output, outputReader);
            }
        }
        // Main ends on what Broker.start threw, printed as the uncaught exception of thread "main".
        if (output.stream().anyMatch(BIND_FAILED.asPredicate())) {
            throw new BindException("broker process could not bind a listener's port: " + output);
        }
        throw new IllegalStateException("broker process ended before it started: " + output);
    }

    /** Waits for the process to end and for its last lines of output; false if it is still running. */
    boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        if (!process.waitFor(timeout, unit)) {
            return false;
        }
        outputReader.join();
        return true;
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs, nothing is flushed, no one is told. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /**
     * SIGTERM, and waits for the clean stop. Through the handle: {@code Process.destroy()} also closes our end of
     * its output, losing its last lines.
     */
    void stop() throws InterruptedException {
        process.toHandle().destroy();
        if (!awaitExit(60, TimeUnit.SECONDS)) {
            kill();
            throw new IllegalStateException("broker process did not stop within 60 s of SIGTERM");
        }
    }

    /** Writes what the process printed so far to {@code file}, for a failed test's reader. */
    void saveOutput(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, output, StandardCharsets.UTF_8);
    }

    int port(String listenerName) {
        Integer port = ports.get(listenerName);
        if (port == null) {
            throw new IllegalArgumentException("no listener " + listenerName + " in " + ports);
        }
        return port;
    }

    String bootstrap() {
        return "localhost:" + port("PLAINTEXT");
    }
}
