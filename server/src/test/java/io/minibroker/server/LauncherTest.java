package io.minibroker.server;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LauncherTest {

    private static final String ARCHIVE = "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa";
    private static final String JAR = "/opt/minibroker/minibroker.jar";
    private static final String CONFIG = "/opt/minibroker/config/server.properties";

    @Test
    void takesHeapThenPerformanceThenOtherOptionsSplitAtWhiteSpace() {
        assertThat(Launcher.jvmOptions(Map.of("KAFKA_HEAP_OPTS", " -Xmx1G  -Xms1G ",
                "KAFKA_OPTS", "-Dfile.encoding=UTF-8\t-Da=b", "KAFKA_JVM_PERFORMANCE_OPTS", "-XX:+UseG1GC",
                "KAFKA_NUM_PARTITIONS", "3")))
                .containsExactly("-Xmx1G", "-Xms1G", "-XX:+UseG1GC", "-Dfile.encoding=UTF-8", "-Da=b");
    }

    @Test
    void neitherSetOrBlankMeansNoOptions() {
        assertThat(Launcher.jvmOptions(Map.of())).isEmpty();
        assertThat(Launcher.jvmOptions(Map.of("KAFKA_HEAP_OPTS", "  ", "KAFKA_OPTS", "",
                "KAFKA_JVM_PERFORMANCE_OPTS", " "))).isEmpty();
    }

    @Test
    void theEnvironmentsOptionsComeAfterTheLaunchersOwnSoThatTheyWin() {
        List<String> command = Launcher.command("/jre/bin/java", List.of(ARCHIVE, "-Xms32m", "-Xmx256m",
                "-XX:+UseSerialGC", "-Dx=1"), List.of("-Dx=2"), JAR, new String[] {CONFIG, "--nodes", "3"});

        assertThat(command).containsExactly("/jre/bin/java", ARCHIVE, "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
                "-Dx=1", "-Dx=2", "-cp", JAR, "io.minibroker.broker.server.Main", CONFIG, "--nodes", "3");
    }

    @Test
    void aHeapSizeFromTheEnvironmentReplacesEveryOwnHeapSize() {
        // An own -Xms32m kept beside -Xmx16m would stop the JVM: its initial heap larger than its maximum.
        List<String> command = Launcher.command("/jre/bin/java", List.of(ARCHIVE, "-Xms32m", "-Xmx256m",
                "-XX:+UseSerialGC"), List.of("-Xmx16m"), JAR, new String[] {CONFIG});

        assertThat(command).containsExactly("/jre/bin/java", ARCHIVE, "-XX:+UseSerialGC", "-Xmx16m", "-cp", JAR,
                "io.minibroker.broker.server.Main", CONFIG);
    }

    @Test
    void aCollectorFromTheEnvironmentReplacesTheOwnOne() {
        // The JVM refuses to start with two collectors chosen.
        List<String> command = Launcher.command("/jre/bin/java", List.of(ARCHIVE, "-Xms32m", "-Xmx256m",
                "-XX:+UseSerialGC"), List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20"), JAR, new String[] {CONFIG});

        assertThat(command).containsExactly("/jre/bin/java", ARCHIVE, "-Xms32m", "-Xmx256m", "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20", "-cp", JAR, "io.minibroker.broker.server.Main", CONFIG);
    }
}
