package io.minibroker.server;

import io.minibroker.broker.server.Main;

import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The image's entry point: runs {@link Main} with the JVM options of {@code KAFKA_HEAP_OPTS} and
 * {@code KAFKA_OPTS}, as Kafka's start scripts hand them to {@code java}. An image has no shell to put them on the
 * command line (the CI base has none at all), so this JVM reads them: with neither set it runs the broker itself,
 * with the heap its own command line gave it (the image's default); with either set it starts the broker in a JVM
 * of its own with those options, and stays as the container's first process, passing on the stop signal and
 * ending with the broker's exit status.
 */
public final class Launcher {

    static final String HEAP_OPTS = "KAFKA_HEAP_OPTS";
    static final String OPTS = "KAFKA_OPTS";

    private Launcher() {
    }

    public static void main(String[] args) throws Exception {
        List<String> jvmOptions = jvmOptions(System.getenv());
        if (jvmOptions.isEmpty()) {
            Main.main(args);
            return;
        }
        List<String> command = command(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), jvmOptions, ownJar(), args);
        Process broker = new ProcessBuilder(command).inheritIO().start();
        // SIGTERM here (docker stop) becomes SIGTERM there, on which the broker stops cleanly; then we end as it did.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.destroy();
            int status = 1;
            try {
                status = broker.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // halted at once below: there is nothing left to wait for
            }
            Runtime.getRuntime().halt(status);
        }, "minibroker-launcher-shutdown"));
        System.exit(broker.waitFor()); // the broker ended by itself (a bad configuration): end as it did
    }

    /** {@code KAFKA_HEAP_OPTS} then {@code KAFKA_OPTS}, split at white space as the scripts' shell splits them. */
    static List<String> jvmOptions(Map<String, String> environment) {
        List<String> options = new ArrayList<>();
        for (String variable : List.of(HEAP_OPTS, OPTS)) {
            String value = environment.get(variable);
            if (value != null && !value.isBlank()) {
                options.addAll(Arrays.asList(value.trim().split("\\s+")));
            }
        }
        return options;
    }

    /**
     * The broker's command: this JVM's own options first (the class-data archive, the image's default heap), then
     * the environment's, which win where they repeat one (the JVM takes the last {@code -Xmx}).
     */
    static List<String> command(String java, List<String> ownOptions, List<String> environmentOptions, String jar,
                                String[] args) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(ownOptions);
        command.addAll(environmentOptions);
        command.addAll(List.of("-cp", jar, Main.class.getName()));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static String ownJar() throws URISyntaxException {
        return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
