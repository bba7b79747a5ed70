package io.minibroker.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LauncherTest {

    private static final String ARCHIVE = "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa";
    private static final String JAR = "/opt/minibroker/minibroker.jar";
    private static final String CONFIG = "/opt/minibroker/config/server.properties";
    /** The repository's default argument files, which the image copies to /opt/minibroker/config. */
    private static final Path HEAP_FILE = Path.of("../config/jvm-heap.options").toAbsolutePath().normalize();
    private static final Path PERFORMANCE_FILE =
            Path.of("../config/jvm-performance.options").toAbsolutePath().normalize();
    /** The image's entry point, as the JVM's command line has it. */
    private static final List<String> COMMAND_LINE = List.of("@" + HEAP_FILE, "@" + PERFORMANCE_FILE, ARCHIVE,
            "-cp", JAR, "io.minibroker.server.Launcher", CONFIG);

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
    void readsAnArgumentFileAsJavaDoes() {
        assertThat(Launcher.argumentFileOptions(List.of("# a comment", "  -Xms32m\t-Xmx256m  # sizes", "",
                "-Da=b#c # -Dnot=read"))).containsExactly("-Xms32m", "-Xmx256m", "-Da=b#c");
    }

    @Test
    void theDefaultArgumentFilesHaveNoQuotingWhichTheLauncherDoesNotRead() throws IOException {
        for (Path file : List.of(HEAP_FILE, PERFORMANCE_FILE)) {
            assertThat(Launcher.argumentFileOptions(Files.readAllLines(file)))
                    .isNotEmpty().noneMatch(option -> option.contains("\"") || option.contains("'"));
        }
    }

    @Test
    void aHeapFromTheEnvironmentReplacesTheWholeDefaultHeapFile() throws IOException {
        // Kept, the default -Xmx256m would win over MaxRAMPercentage.
        assertThat(brokerCommand(Map.of("KAFKA_HEAP_OPTS", "-XX:MaxRAMPercentage=75"))).containsExactly(
                "/jre/bin/java", "-XX:+UseSerialGC", "-Dio.netty.allocator.maxOrder=8", ARCHIVE,
                "-XX:MaxRAMPercentage=75", "-cp", JAR, "io.minibroker.broker.server.Main", CONFIG);
    }

    @Test
    void performanceOptionsFromTheEnvironmentReplaceTheWholeDefaultPerformanceFile() throws IOException {
        // The collector (the JVM refuses two) and Netty's pool setting alike, as bin/minibroker drops the file.
        assertThat(brokerCommand(Map.of("KAFKA_JVM_PERFORMANCE_OPTS", "-XX:+UseG1GC -XX:MaxGCPauseMillis=20")))
                .containsExactly("/jre/bin/java", "-Xms32m", "-Xmx256m", ARCHIVE, "-XX:+UseG1GC",
                        "-XX:MaxGCPauseMillis=20", "-cp", JAR, "io.minibroker.broker.server.Main", CONFIG);
    }

    @Test
    void otherOptionsAddToTheDefaultsAndReplaceNone() throws IOException {
        // A young generation size is not a replacement of the heap, nor a flag named like a collector a collector.
        assertThat(brokerCommand(Map.of("KAFKA_OPTS", "-Xmn16m -XX:+UseMaximumCompactionOnSystemGC"))).containsExactly(
                "/jre/bin/java", "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-Dio.netty.allocator.maxOrder=8",
                ARCHIVE, "-Xmn16m", "-XX:+UseMaximumCompactionOnSystemGC", "-cp", JAR,
                "io.minibroker.broker.server.Main", CONFIG);
    }

    @Test
    void anEmptyVariableIsUnsetAsForTheScripts() throws IOException {
        assertThat(brokerCommand(Map.of("KAFKA_HEAP_OPTS", "", "KAFKA_OPTS", "-Da=b"))).containsExactly(
                "/jre/bin/java", "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-Dio.netty.allocator.maxOrder=8",
                ARCHIVE, "-Da=b", "-cp", JAR, "io.minibroker.broker.server.Main", CONFIG);
    }

    @Test
    void onlyOptionsFromTheFileAreDroppedNotEqualOnesGivenBesideIt() throws IOException {
        List<String> commandLine = List.of("@" + HEAP_FILE, "-Xmx256m", "-cp", JAR, "io.minibroker.server.Launcher");
        List<String> replaced = Launcher.replacedDefaults(Map.of("KAFKA_HEAP_OPTS", "-Xms1g"), commandLine);

        assertThat(Launcher.command("/jre/bin/java", List.of("-Xms32m", "-Xmx256m", "-Xmx256m"), replaced,
                List.of("-Xms1g"), JAR, new String[0]))
                .containsExactly("/jre/bin/java", "-Xmx256m", "-Xms1g", "-cp", JAR, "io.minibroker.broker.server.Main");
    }

    @Test
    void argumentFilesAfterTheMainClassOrEscapedAreNotTheDefaults(@TempDir Path directory) throws IOException {
        Path heap = Files.writeString(directory.resolve("jvm-heap.options"), "-Xmx1m");
        List<String> commandLine = List.of("@@" + heap, "-cp", JAR, "io.minibroker.server.Launcher", "@" + heap);

        assertThat(Launcher.replacedDefaults(Map.of("KAFKA_HEAP_OPTS", "-Xmx1g"), commandLine)).isEmpty();
    }

    /** The command the image's entry point starts the broker with, in this environment. */
    private static List<String> brokerCommand(Map<String, String> environment) throws IOException {
        List<String> ownOptions = new ArrayList<>(Launcher.argumentFileOptions(Files.readAllLines(HEAP_FILE)));
        ownOptions.addAll(Launcher.argumentFileOptions(Files.readAllLines(PERFORMANCE_FILE)));
        ownOptions.add(ARCHIVE);
        return Launcher.command("/jre/bin/java", ownOptions, Launcher.replacedDefaults(environment, COMMAND_LINE),
                Launcher.jvmOptions(environment), JAR, new String[] {CONFIG});
    }
}
