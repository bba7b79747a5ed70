package io.minibroker.it;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker's jar as bin/minibroker runs it: --help and --version answer and exit 0 without starting a broker
 * (Commands.run fails on another exit code, and on a process still running after a minute).
 */
class CommandLineTest {

    private static final Path JAR = Path.of("..", "server", "target", "minibroker.jar");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void versionPrintsTheVersionFromTheJarsManifest() throws Exception {
        assertThat(JAR).exists();

        String out = Commands.run("", JAVA, "-jar", JAR.toString(), "--version");

        assertThat(out.strip()).matches("minibroker \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }

    @Test
    void helpNamesEveryOption() throws Exception {
        String out = Commands.run("", JAVA, "-jar", JAR.toString(), "--help");

        assertThat(out).startsWith("usage: minibroker").contains("--override key=value", "--nodes N",
                "--await-overrides file", "--version");
    }
}
