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
     * An argument file's options, as the java launcher of JDK 17 reads the file: white space separates them; a
     * {@code #} outside quotes starts a comment to the end of its line, and drops the unquoted text of the option
     * it interrupts; single or double quotes keep white space in an option and end, unclosed, at the end of their
     * line; inside quotes a backslash escapes the next character ({@code \n}, {@code \t}, {@code \r}, {@code \f}
     * stand for those characters) or, at the end of a line, continues the quote on the next one, without that line's
     * leading white space. Outside quotes a backslash is itself. LauncherTest checks these rules against the JDK's
     * own launcher.
     */
    static List<String> argumentFileOptions(String text) {
        List<String> options = new ArrayList<>();
        StringBuilder taken = new StringBuilder(); // the option so far, up to its last quote
        StringBuilder unquoted = new StringBuilder(); // what followed that quote, which a comment drops
        char quote = 0;
        boolean comment = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (comment) {
                comment = c != '\n' && c != '\r'; // the option interrupted goes on after the comment's line
            } else if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\n' || c == '\r') {
                    quote = 0;
                    emit(options, taken, unquoted);
                } else if (c == '\\' && i + 1 < text.length()) {
                    char escaped = text.charAt(++i);
                    if (escaped == '\n' || escaped == '\r') {
                        if (escaped == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                            i++;
                        }
                        while (i + 1 < text.length() && (text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t')) {
                            i++;
                        }
                    } else {
                        taken.append(switch (escaped) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case 'f' -> '\f';
                            default -> escaped;
                        });
                    }
                } else {
                    taken.append(c);
                }
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                emit(options, taken, unquoted);
            } else if (c == '#') {
                unquoted.setLength(0);
                comment = true;
            } else if (c == '"' || c == '\'') {
                taken.append(unquoted);
                unquoted.setLength(0);
                quote = c;
            } else {
                unquoted.append(c);
            }
        }
        emit(options, taken, unquoted);
        return options;
    }

    /** Adds the option that ends here, if it has any text (an empty one is no option), and starts the next. */
    private static void emit(List<String> options, StringBuilder taken, StringBuilder unquoted) {
        taken.append(unquoted);
        if (!taken.isEmpty()) {
            options.add(taken.toString());
        }
        taken.setLength(0);
        unquoted.setLength(0);
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
