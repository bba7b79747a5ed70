package io.minibroker.benchmarks.purgatory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts one {@link SingleRun} in a fresh JVM, so that no run inherits another's JIT profile, heap or leftover
 * threads, and both implementations get exactly the same flags.
 */
final class ForkedRun {

    /**
     * The seed benchmark's heap. G1 is named rather than left to ergonomics, which would pick the serial
     * collector on a machine it does not consider server-class and so change the results from box to box.
     */
    static final List<String> JVM_FLAGS = List.of("-Xmx200m", "-XX:+UseG1GC");

    private static final long RUN_TIMEOUT_SECONDS = 300;

    private ForkedRun() {
    }

    /** The child's stdout lines, its stderr and its exit code (-1 if it had to be killed). */
    record Output(List<String> lines, String stderr, int exitCode) {
    }

    static Output run(RunSpec spec) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SingleRun.class.getName());
        command.addAll(spec.toArgs());
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        // Drain both pipes concurrently so a chatty child can never block on a full pipe.
        Drain out = new Drain(process.getInputStream());
        Drain err = new Drain(process.getErrorStream());
        out.start();
        err.start();
        int exit;
        if (process.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            exit = process.exitValue();
        } else {
            process.destroyForcibly();
            process.waitFor();
            exit = -1;
        }
        out.join();
        err.join();
        return new Output(out.text().lines().toList(), err.text(), exit);
    }

    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Drain(InputStream in) {
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            try (in) {
                in.transferTo(buffer);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String text() {
            return buffer.toString(StandardCharsets.UTF_8);
        }
    }
}
