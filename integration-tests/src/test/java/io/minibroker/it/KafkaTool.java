package io.minibroker.it;

import io.minibroker.broker.tools.KafkaToolProcess;

import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one of kafka-tools 4.3.1's commands (what kafka-transactions.sh, kafka-acls.sh and the other scripts start) in
 * a child JVM ({@link KafkaToolProcess}), on this module's class path with the kafka-clients the tools were built
 * with; or a test's own main class with an older kafka-clients.
 */
final class KafkaTool {

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
     * What the command printed on standard output and on standard error (where a refusal's message goes), failing
     * the test unless it exits with {@code exit}.
     */
    static KafkaToolProcess.Output runForOutput(int exit, Class<?> command, String... args) throws Exception {
        return KafkaToolProcess.runForOutput(classPathWith("kafka.tools.clients.jar"), exit, command,
                Arrays.asList(args));
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
        return KafkaToolProcess.run(classPathWith(clientsJarProperty), exit, command, Arrays.asList(args));
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
