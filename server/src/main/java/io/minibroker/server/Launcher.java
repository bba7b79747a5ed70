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
 *
 * <p>A variable replaces the options of its default file, as bin/minibroker puts the variable where the file would
 * be. Which options those are is read from the files themselves, in the {@code config} directory beside this jar
 * (where the image puts them, {@code /opt/minibroker/config}), and dropped from this JVM's own options; how the entry
 * point named the files on its command line does not matter.
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
    /** Where the default files are, beside the jar. */
    private static final String CONFIG_DIRECTORY = "config";

    private Launcher() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> environment = System.getenv();
        if (List.of(HEAP_OPTS, PERFORMANCE_OPTS, OPTS).stream().noneMatch(variable -> isSet(environment, variable))) {
            Main.main(args);
            return;
        }
        Path jar = ownJar();
        List<String> command = command(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                replacedDefaults(environment, configDirectory(jar)), jvmOptions(environment), jar.toString(), args);
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

    /** The directory of the default argument files: {@code config} beside the jar, as the image has it. */
    static Path configDirectory(Path jar) {
        return jar.toAbsolutePath().getParent().resolve(CONFIG_DIRECTORY);
    }

    /**
     * The options the set variables replace: those of each one's default file in {@code configDirectory}. A file
     * that is not there gave this JVM no options to replace.
     */
    static List<String> replacedDefaults(Map<String, String> environment, Path configDirectory) throws IOException {
        List<String> replaced = new ArrayList<>();
        for (String variable : List.of(HEAP_OPTS, PERFORMANCE_OPTS)) {
            Path file = configDirectory.resolve(DEFAULTS_FILES.get(variable));
            if (isSet(environment, variable) && Files.isRegularFile(file)) {
                replaced.addAll(argumentFileOptions(Files.readString(file)));
            }
        }
        return replaced;
    }

    /**
     * An argument file's options, as the java launcher reads a file of the kind config/ holds: options separated by
     * white space, and comments. A {@code #} starts a comment to the end of its line and, where it interrupts an
     * option, drops that option's text, as the launcher does. Quotes, which the launcher reads with escapes and
     * line continuations, are refused rather than misread: the default files need none. LauncherTest checks this
     * against the JDK's own launcher.
     *
     * @throws IllegalArgumentException if the text has a quote outside a comment
     */
    static List<String> argumentFileOptions(String text) {
        List<String> options = new ArrayList<>();
        for (String line : text.split("[\r\n]")) {
            for (String option : line.split("[ \t\f]+")) {
                int comment = option.indexOf('#');
                String read = comment < 0 ? option : option.substring(0, comment);
                if (read.contains("\"") || read.contains("'")) {
                    throw new IllegalArgumentException("A quote in a JVM argument file, which this launcher does "
                            + "not read: " + option);
                }
                if (comment >= 0) {
                    break; // the rest of the line is a comment, and the option it interrupts is dropped
                }
                if (!option.isEmpty()) {
                    options.add(option);
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

    private static Path ownJar() throws URISyntaxException {
        return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
