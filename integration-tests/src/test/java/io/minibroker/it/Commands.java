package io.minibroker.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Runs a command with {@code input} on stdin; returns stdout, failing on a non-zero exit. */
    static String run(String input, String... command) throws IOException, InterruptedException {
        return run(null, input, command);
    }

    /** The same, in {@code workDir} (null: this process's). */
    static String run(Path workDir, String input, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        Process process = builder.start();
        process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("exit code of %s", String.join(" ", command)).isZero();
        return output;
    }
}
