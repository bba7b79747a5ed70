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
 * a child JVM, as the scripts run them, on this module's class path with the kafka-clients the tools were built with;
 * or a test's own main class with an older kafka-clients. As the scripts do (config/tools-log4j2.yaml), the child
 * logs only warnings and errors, on standard error, so standard output is the tool's own.
 */
final class KafkaTool {

    private static final String TOOL_LOGGING = Path.of(toUri(KafkaTool.class.getResource("/kafka-tool-logback.xml")))
            .toString();

    private KafkaTool() {
    }

    /** The command's standard output, failing the test on an exit other than 0. */
    static String run(Class<?> command, String... args) throws Exception {
        return runWithClients("kafka.tools.clients.jar", command, args);
    }

    /** The command's standard output, failing the test unless it exits with {@code exit} (1: a refusal it reports). */
    static String runExiting(int exit, Class<?> command, String... args) throws Exception {
        return runWithClients("kafka.tools.clients.jar", exit, command, args);
    }

    /**
     * The same for any main class, with the kafka-clients jar the build copied to where this system property
     * names (integration-tests/pom.xml) in place of this module's 4.4.0.
     */
    static String runWithClients(String clientsJarProperty, Class<?> command, String... args) throws Exception {
        return runWithClients(clientsJarProperty, 0, command, args);
    }

    private static String runWithClients(String clientsJarProperty, int exit, Class<?> command, String... args)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> line = new ArrayList<>(List.of(java, "-Xmx128m", "-Dlogback.configurationFile=" + TOOL_LOGGING,
                "-cp", classPathWith(clientsJarProperty), command.getName()));
        line.addAll(Arrays.asList(args));
        String name = command.getSimpleName();
        Path out = Files.createTempFile(name, ".out");
        Path err = Files.createTempFile(name, ".err");
        try {
            Process process = new ProcessBuilder(line).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " " + List.of(args) + " still running after 90 s: "
                        + Files.readString(out) + Files.readString(err));
            }
            String stdout = Files.readString(out);
            assertThat(process.exitValue()).as("exit of " + name + " " + List.of(args) + ": " + stdout
                    + Files.readString(err)).isEqualTo(exit);
            return stdout;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static java.net.URI toUri(java.net.URL url) {
        try {
            return url.toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The test's class path with another kafka-clients in place of this module's 4.4.0 (kafka-tools 4.3.1 calls a
     * class 4.4.0 moved; an older client line is under test): the copy the build makes of it, named by this
     * property (integration-tests/pom.xml).
     */
    static String classPathWith(String clientsJarProperty) {
        String clients = System.getProperty(clientsJarProperty);
        assertThat(clients).as(clientsJarProperty + " (set by the build)").isNotNull();
        assertThat(Path.of(clients)).exists();
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(entry -> entry.matches(".*kafka-clients-[^/]+\\.jar") ? clients : entry)
                .reduce((a, b) -> a + java.io.File.pathSeparator + b).orElseThrow();
    }
}
