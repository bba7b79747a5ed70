package io.minibroker.server;

import io.minibroker.broker.server.Main;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

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
    /**
     * The argument file each variable replaces, by name, as bin/minibroker replaces {@code @config/jvm-heap.options}
     * with {@code KAFKA_HEAP_OPTS}; {@code KAFKA_OPTS} replaces nothing, it only adds.
     */
    private static final Map<String, String> DEFAULTS_FILES = Map.of(HEAP_OPTS, "jvm-heap.options",
            PERFORMANCE_OPTS, "jvm-performance.options");

    private Launcher() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> environment = System.getenv();
        if (List.of(HEAP_OPTS, PERFORMANCE_OPTS, OPTS).stream().noneMatch(variable -> isSet(environment, variable))) {
            Main.main(args);
            return;
        }
        // The command line as it was typed, argument files unexpanded (Linux's /proc has it): which options came
        // from which file is known only there.
        List<String> commandLine = ProcessHandle.current().info().arguments().map(List::of)
                .orElseThrow(() -> new IllegalStateException("this JVM's command line cannot be read: cannot tell "
                        + "which of its options " + HEAP_OPTS + " and " + PERFORMANCE_OPTS + " replace"));
        List<String> command = command(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), replacedDefaults(environment, commandLine),
                jvmOptions(environment), ownJar(), args);
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

    /** Set as the scripts' {@code ${KAFKA_HEAP_OPTS:-default}} takes it: an empty value is no value. */
    private static boolean isSet(Map<String, String> environment, String variable) {
        String value = environment.get(variable);
        return value != null && !value.isEmpty();
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
     * The options of the default argument files (the {@code @file} arguments of this JVM's command line, before
     * its main class) whose variable is set: the options those variables replace.
     */
    static List<String> replacedDefaults(Map<String, String> environment, List<String> commandLine)
            throws IOException {
        List<String> replaced = new ArrayList<>();
        for (String argument : commandLine) {
            if (argument.equals(Launcher.class.getName())) {
                break; // the java launcher expands no argument file after the main class
            }
            if (!argument.startsWith("@") || argument.startsWith("@@")) {
                continue; // "@@x" is java's escape for a literal "@x"
            }
            Path file = Path.of(argument.substring(1));
            for (Map.Entry<String, String> variable : DEFAULTS_FILES.entrySet()) {
                if (isSet(environment, variable.getKey())
                        && file.getFileName().toString().equals(variable.getValue())) {
                    replaced.addAll(argumentFileOptions(Files.readAllLines(file)));
                }
            }
        }
        return replaced;
    }

    /**
     * An argument file's options: white-space separated, a word starting with {@code #} starting a comment to the
     * end of its line, as java reads the file. Quoting is not read: the default files have none (LauncherTest
     * checks).
     */
    static List<String> argumentFileOptions(List<String> lines) {
        List<String> options = new ArrayList<>();
        for (String line : lines) {
            for (String word : line.trim().split("\\s+")) {
                if (word.startsWith("#")) {
                    break;
                }
                if (!word.isEmpty()) {
                    options.add(word);
                }
            }
        }
        return options;
    }

    /**
     * The broker's command: this JVM's own options (the class-data archive, the image's defaults) less those the
     * environment replaces, each dropped once as its argument file gave it once, then the environment's options.
     */
    static List<String> command(String java, List<String> ownOptions, List<String> replacedDefaults,
                                List<String> environmentOptions, String jar, String[] args) {
        List<String> kept = new ArrayList<>(ownOptions);
        replacedDefaults.forEach(kept::remove);
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(kept);
        command.addAll(environmentOptions);
        command.addAll(List.of("-cp", jar, Main.class.getName()));
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static String ownJar() throws URISyntaxException {
        return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
