package io.minibroker.server;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LauncherTest {

    @Test
    void takesHeapThenOtherOptionsSplitAtWhiteSpace() {
        assertThat(Launcher.jvmOptions(Map.of("KAFKA_HEAP_OPTS", " -Xmx1G  -Xms1G ",
                "KAFKA_OPTS", "-Dfile.encoding=UTF-8\t-XX:+UseG1GC", "KAFKA_NUM_PARTITIONS", "3")))
                .containsExactly("-Xmx1G", "-Xms1G", "-Dfile.encoding=UTF-8", "-XX:+UseG1GC");
    }

    @Test
    void neitherSetOrBlankMeansNoOptions() {
        assertThat(Launcher.jvmOptions(Map.of())).isEmpty();
        assertThat(Launcher.jvmOptions(Map.of("KAFKA_HEAP_OPTS", "  ", "KAFKA_OPTS", ""))).isEmpty();
    }

    @Test
    void theEnvironmentsOptionsComeAfterTheLaunchersOwnSoThatTheyWin() {
        List<String> command = Launcher.command("/jre/bin/java",
                List.of("-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa", "-Xmx256m"), List.of("-Xmx1G"),
                "/opt/minibroker/minibroker.jar", new String[] {"/opt/minibroker/config/server.properties", "--nodes", "3"});

        assertThat(command).containsExactly("/jre/bin/java", "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa",
                "-Xmx256m", "-Xmx1G", "-cp", "/opt/minibroker/minibroker.jar", "io.minibroker.broker.server.Main",
                "/opt/minibroker/config/server.properties", "--nodes", "3");
    }
}
