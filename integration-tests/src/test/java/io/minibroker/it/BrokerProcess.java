package io.minibroker.it;

import io.minibroker.broker.server.Main;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker in a child JVM, on the test's class path, started by {@code Main} as {@code bin/minibroker} would:
 * for what only a process shows (a kill -9, a signal, an exit status). Its output is kept, line by line.
 */
record BrokerProcess(Process process, int port, List<String> output, Thread outputReader) {

    private static final Pattern LISTENING = Pattern.compile("Listening on /[^:]+:(\\d+) ");

    /** Starts a broker on {@code logDir} and returns once it listens. */
    static BrokerProcess start(Path logDir, String... overrides) throws IOException {
        // advertised.listeners with port 0 is advertised with the bound port, so clients reach the child.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "../config/server.properties",
                "--override", "log.dirs=" + logDir,
                "--override", "listeners=PLAINTEXT://localhost:0",
                "--override", "advertised.listeners=PLAINTEXT://localhost:0"));
        for (String override : overrides) {
            command.add("--override");
            command.add(override);
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        List<String> output = new CopyOnWriteArrayList<>();
        String line;
        while ((line = reader.readLine()) != null) {
            output.add(line);
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                Thread outputReader = new Thread(() -> reader.lines().forEach(output::add));
                outputReader.setDaemon(true);
                outputReader.start();
                return new BrokerProcess(process, Integer.parseInt(listening.group(1)), output, outputReader);
            }
        }
        throw new IllegalStateException("broker process ended before listening: " + output);
    }

    /** Waits for the process to end and for its last lines of output; false if it is still running. */
    boolean awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        if (!process.waitFor(timeout, unit)) {
            return false;
        }
        outputReader.join();
        return true;
    }

    String bootstrap() {
        return "localhost:" + port;
    }
}
