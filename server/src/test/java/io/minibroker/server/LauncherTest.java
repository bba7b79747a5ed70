package io.minibroker.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LauncherTest {

    private static final String ARCHIVE = "-XX:SharedArchiveFile=/opt/minibroker/minibroker.jsa";
    private static final String JAR = "/opt/minibroker/minibroker.jar";
    private static final String CONFIG = "/opt/minibroker/config/server.properties";
    /** The repository's config directory, whose default argument files the image copies to /opt/minibroker/config. */
    private static final Path CONFIG_DIRECTORY = Path.of("../config").toAbsolutePath().normalize();
    private static final Path HEAP_FILE = CONFIG_DIRECTORY.resolve("jvm-heap.options");
    private static final Path PERFORMANCE_FILE = CONFIG_DIRECTORY.resolve("jvm-performance.options");

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
        assertThat(Launcher.argumentFileOptions(String.join("\n", "# a comment", "  -Xms32m\t-Xmx256m  # sizes", "",
                "-Da=b#c -Dnot=read", "-Dplain=back\\slash\r\n-Dd=e\f-Df=g"))).containsExactly("-Xms32m", "-Xmx256m",
                "-Dplain=back\\slash", "-Dd=e", "-Df=g");
    }

    /** Quotes, which the JDK reads with escapes and continuations, are refused, not misread; a comment's are text. */
    @Test
    void refusesQuotesOutsideComments() {
        assertThat(Launcher.argumentFileOptions("-Da=b # it's \"quoted\"")).containsExactly("-Da=b");
        assertThatThrownBy(() -> Launcher.argumentFileOptions("-Dq=\"x y\""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-Dq=\"x");
        assertThatThrownBy(() -> Launcher.argumentFileOptions("-Ds='#1'")).isInstanceOf(IllegalArgumentException.class);
    }

    /** The rules above, and the default files, read as this JDK's own launcher reads them. */
    @Test
    void readsArgumentFilesAsTheJavaLauncherDoes(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("tricky.options"), String.join("\n",
                "# a comment -Dt.not=1", "-Dt.a=1 -Dt.b=2\t-Dt.c=3 # -Dt.not=2", "-Dt.d=x#dropped -Dt.not=3",
                "  \t", "\t-Dt.e=5\f-Dt.f=back\\slash\r\n-Dt.g=6\r-Dt.h=7#", "#-Dt.not=4", "-Dt.i=8", ""));
        for (Path options : List.of(file, HEAP_FILE, PERFORMANCE_FILE)) {
            List<String> read = Launcher.argumentFileOptions(Files.readString(options));
            assertThat(read).as(options.toString()).isNotEmpty();
            assertThat(javaLauncherReads(options)).as(options.toString()).containsExactlyElementsOf(read);
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
    void eachOptionOfTheFileIsDroppedOnceNotEqualOnesGivenBesideIt() throws IOException {
        List<String> replaced = Launcher.replacedDefaults(Map.of("KAFKA_HEAP_OPTS", "-Xms1g"), CONFIG_DIRECTORY);

        assertThat(Launcher.command("/jre/bin/java", List.of("-Xms32m", "-Xmx256m", "-Xmx256m"), replaced,
                List.of("-Xms1g"), JAR, new String[0]))
                .containsExactly("/jre/bin/java", "-Xmx256m", "-Xms1g", "-cp", JAR, "io.minibroker.broker.server.Main");
    }

    @Test
    void withoutTheDefaultFilesNothingIsReplaced(@TempDir Path directory) throws IOException {
        assertThat(Launcher.replacedDefaults(Map.of("KAFKA_HEAP_OPTS", "-Xmx1g", "KAFKA_JVM_PERFORMANCE_OPTS",
                "-XX:+UseG1GC"), directory)).isEmpty();
    }

    /**
     * The defaults are read from config/ beside the jar: where the Dockerfile puts both (the entry point's jar, and
     * the files its runtime stage copies), so that a variable set in a container replaces what the entry point's
     * own argument files gave.
     */
    @Test
    void theImageKeepsTheDefaultFilesWhereTheLauncherReadsThem() throws IOException {
        String dockerfile = Files.readString(Path.of("../Dockerfile"));
        assertThat(dockerfile).contains("\"-cp\", \"" + JAR + "\", \"io.minibroker.server.Launcher\"");
        String configDirectory = Launcher.configDirectory(Path.of(JAR)).toString();
        assertThat(configDirectory).isEqualTo("/opt/minibroker/config");
        assertThat(dockerfile.lines().filter(line -> line.startsWith("COPY ") && line.contains(" config/jvm-heap.options")
                && line.contains(" config/jvm-performance.options") && line.endsWith(" " + configDirectory + "/")))
                .as("the runtime stage copies both default files to " + configDirectory).hasSize(1);
    }

    /** The command the image's entry point starts the broker with, in this environment. */
    private static List<String> brokerCommand(Map<String, String> environment) throws IOException {
        List<String> ownOptions = new ArrayList<>(Launcher.argumentFileOptions(Files.readString(HEAP_FILE)));
        ownOptions.addAll(Launcher.argumentFileOptions(Files.readString(PERFORMANCE_FILE)));
        ownOptions.add(ARCHIVE);
        return Launcher.command("/jre/bin/java", ownOptions, Launcher.replacedDefaults(environment, CONFIG_DIRECTORY),
                Launcher.jvmOptions(environment), JAR, new String[] {CONFIG});
    }

    /** The options a JVM started with {@code @file} has, as this JDK's java launcher read them from the file. */
    private static List<String> javaLauncherReads(Path file) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + file, "-cp", System.getProperty("java.class.path"), InputArguments.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().remove("JDK_JAVA_OPTIONS"); // options of its own, which the launcher would add
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process java = builder.start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        List<String> options = new ArrayList<>(Arrays.asList(output.split("\0", -1)));
        options.remove(options.size() - 1); // after the last NUL
        return options;
    }

    /** Prints its JVM's input arguments, each followed by a NUL (an option may hold a line break). */
    public static final class InputArguments {
        public static void main(String[] args) {
            StringBuilder out = new StringBuilder();
            for (String argument : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                out.append(argument).append('\0');
            }
            System.out.print(out);
        }
    }
}
