package io.minibroker.broker.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one of Kafka's command-line tools (the main class a kafka-*.sh script starts) in a child JVM, as the scripts
 * run them: on a class path the caller gives, logging only warnings and errors, on standard error
 * ({@code kafka-tool-logback.xml}, a resource of this test jar, as the scripts' config/tools-log4j2.yaml), so that
 * standard output is the tool's own. Shared by integration-tests' KafkaTool and streams-tests' tool tests, whose
 * class paths differ (the kafka-clients release each runs the tools with).
 */
public final class KafkaToolProcess {

    private static final long TIMEOUT_SECONDS = 90;
    /**
     * The logging set-up as a file of its own: the resource may sit in a jar (this test jar, to another module), and
     * a resource name would have Logback print its status on the tool's standard output whenever a stale copy of the
     * file stood elsewhere on the class path.
     */
    private static final Path LOGGING = loggingFile();

    private KafkaToolProcess() {
    }

    /**
     * The command's standard output, failing the test unless it exits with {@code exit} within
     * {@value #TIMEOUT_SECONDS} seconds.
     */
    public static String run(String classPath, int exit, Class<?> command, List<String> args) throws Exception {
        return runForOutput(classPath, exit, command, args).stdout();
    }

    /** What a command printed: on standard output, and on standard error (a refusal's message, the logs). */
    public record Output(String stdout, String stderr) {
    }

    /** {@link #run}, for both of what the command printed. */
    public static Output runForOutput(String classPath, int exit, Class<?> command, List<String> args)
            throws Exception {
        String name = command.getSimpleName();
        Path out = Files.createTempFile(name, ".out");
        Path err = Files.createTempFile(name, ".err");
        try {
            Process process = processBuilder(classPath, command, args).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " " + args + " still running after " + TIMEOUT_SECONDS + " s: "
                        + Files.readString(out) + Files.readString(err));
            }
            String stdout = Files.readString(out);
            String stderr = Files.readString(err);
            assertThat(process.exitValue()).as("exit of " + name + " " + args + ": " + stdout + stderr)
                    .isEqualTo(exit);
            return new Output(stdout, stderr);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * The command line of the tool's child JVM, for a caller that reads its output as it runs (a tool that runs until
     * stopped, such as the system tests' verifiable clients) and sets where its output goes.
     */
    public static ProcessBuilder processBuilder(String classPath, Class<?> command, List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> line = new ArrayList<>(List.of(java, "-Xmx128m", "-Dlogback.configurationFile=" + LOGGING,
                "-cp", classPath, command.getName()));
        line.addAll(args);
        return new ProcessBuilder(line);
    }

    private static Path loggingFile() {
        try (InputStream in = KafkaToolProcess.class.getResourceAsStream("/kafka-tool-logback.xml")) {
            if (in == null) {
                throw new IllegalStateException("kafka-tool-logback.xml is missing from the broker's test classes");
            }
            Path file = Files.createTempFile("kafka-tool-logback", ".xml");
            file.toFile().deleteOnExit();
            Files.write(file, in.readAllBytes());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
