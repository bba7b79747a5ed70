package io.minibroker.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one of kafka-tools 4.3.1's commands (what kafka-transactions.sh, kafka-acls.sh and the other scripts start) in
 * a child JVM, as the scripts run them, on this module's class path with the kafka-clients the tools were built with.
 */
final class KafkaTool {

    private KafkaTool() {
    }

    /** The command's standard output, failing the test on an exit other than 0. */
    static String run(Class<?> command, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> line = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", toolClassPath(), command.getName()));
        line.addAll(Arrays.asList(args));
        String name = command.getSimpleName();
        Path out = Files.createTempFile(name, ".out");
        Path err = Files.createTempFile(name, ".err");
        try {
            Process process = new ProcessBuilder(line).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(name + " " + List.of(args)).isTrue();
            String stdout = Files.readString(out);
            assertThat(process.exitValue()).as("exit of " + name + " " + List.of(args) + ": " + stdout
                    + Files.readString(err)).isZero();
            return stdout;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * The test's class path with the kafka-clients the tools were built with in place of this module's 4.4.0
     * (kafka-tools 4.3.1 calls a class 4.4.0 moved): the copy the build makes of it, named by the
     * {@code kafka.tools.clients.jar} property (integration-tests/pom.xml).
     */
    private static String toolClassPath() {
        String toolsClients = System.getProperty("kafka.tools.clients.jar");
        assertThat(toolsClients).as("kafka.tools.clients.jar (set by the build)").isNotNull();
        assertThat(Path.of(toolsClients)).exists();
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(entry -> entry.matches(".*kafka-clients-[^/]+\\.jar") ? toolsClients : entry)
                .reduce((a, b) -> a + java.io.File.pathSeparator + b).orElseThrow();
    }
}
