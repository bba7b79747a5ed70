package io.minibroker.server;

import io.minibroker.broker.server.Main;

import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The image's entry point: runs {@link Main} with the JVM options of {@code KAFKA_HEAP_OPTS},
 * {@code KAFKA_JVM_PERFORMANCE_OPTS} and {@code KAFKA_OPTS}, as Kafka's start scripts hand them to {@code java}. An
 * image has no shell to put them on the command line (the CI base has none at all), so this JVM reads them: with
 * none set it runs the broker itself, with the options its own command line gave it (the image's defaults, from
 * config/jvm-heap.options and config/jvm-performance.options); with any set it starts the broker in a JVM of its
 * own with those options, and stays as the container's first process, passing on the stop signal and ending with
 * the broker's exit status.
 */
public final class Launcher {

    static final String HEAP_OPTS = "KAFKA_HEAP_OPTS";
    static final String PERFORMANCE_OPTS = "KAFKA_JVM_PERFORMANCE_OPTS";
    static final String OPTS = "KAFKA_OPTS";
    /** The heap's size: the options that {@code KAFKA_HEAP_OPTS} is for. */
    private static final Pattern HEAP_SIZE = Pattern.compile("-Xm[sxn].*|-XX:(Initial|Max|Min)HeapSize=.*");
    /** The choice of garbage collector: the JVM refuses to start with two. */
    private static final Pattern COLLECTOR = Pattern.compile("-XX:[+-]Use\\w+GC");

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

    /**
     * {@code KAFKA_HEAP_OPTS}, {@code KAFKA_JVM_PERFORMANCE_OPTS}, then {@code KAFKA_OPTS}, split at white space as
     * the scripts' shell splits them.
     */
    static List<String> jvmOptions(Map<String, String> environment) {
        List<String> options = new ArrayList<>();
        for (String variable : List.of(HEAP_OPTS, PERFORMANCE_OPTS, OPTS)) {
            String value = environment.get(variable);
            if (value != null && !value.isBlank()) {
                options.addAll(Arrays.asList(value.trim().split("\\s+")));
            }
        }
        return options;
    }

    /**
     * The broker's command: this JVM's own options first (the class-data archive, the image's defaults), then the
     * environment's. The environment's replace the defaults as Kafka's scripts replace theirs: a heap size there
     * drops every own heap size (an own {@code -Xms32m} would otherwise outgrow a smaller {@code -Xmx}), a collector
     * there drops the own one (the JVM refuses two); of other options that repeat, the JVM takes the last.
     */
    static List<String> command(String java, List<String> ownOptions, List<String> environmentOptions, String jar,
                                String[] args) {
        List<String> command = new ArrayList<>();
        command.add(java);
        for (String option : ownOptions) {
            if (!replacedBy(option, environmentOptions)) {
                command.add(option);
            }
        }
        command.addAll(environmentOptions);
        command.addAll(List.of("-cp", jar, Main.class.getName()));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static boolean replacedBy(String ownOption, List<String> environmentOptions) {
        for (Pattern kind : List.of(HEAP_SIZE, COLLECTOR)) {
            if (kind.matcher(ownOption).matches()
                    && environmentOptions.stream().anyMatch(option -> kind.matcher(option).matches())) {
                return true;
            }
        }
        return false;
    }

    private static String ownJar() throws URISyntaxException {
        return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
