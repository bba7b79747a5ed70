package io.minibroker.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Clients that are not Java, run as programs: found on the PATH, fed stdin, their stdout returned. */
final class Commands {

    private Commands() {
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a command exits 0 within a minute, its output discarded: for what {@link #onPath} cannot tell, such
     * as whether an interpreter can load a library.
     */
    static boolean succeeds(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        process.getOutputStream().close();
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return false;
        }
        return process.exitValue() == 0;
    }

    /** Runs a command with {@code input} on stdin; returns stdout, failing on a non-zero exit. */
    static String run(String input, String... command) throws IOException, InterruptedException {
        return run(null, input, command);
    }

    /**
     * The same, in {@code workDir} (null: this process's). The output goes to a file, not a pipe read here, so a
     * command that hangs is killed after a minute and fails the test instead of blocking the build.
     */
    static String run(Path workDir, String input, String... command) throws IOException, InterruptedException {
        return run(workDir, Duration.ofMinutes(1), input, command);
    }

    /** The same, killed and failed after {@code timeout} instead of a minute (a build that compiles a library). */
    static String run(Path workDir, Duration timeout, String input, String... command)
            throws IOException, InterruptedException {
        Path output = Files.createTempFile("command-output", ".txt");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(output.toFile());
            if (workDir != null) {
                builder.directory(workDir.toFile());
            }
            Process process = builder.start();
            process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout);
            }
            assertThat(process.exitValue()).as("exit code of %s", String.join(" ", command)).isZero();
            return Files.readString(output);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
