package io.minibroker.broker.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each log directory's {@code meta.properties}, as {@code kafka-storage format} writes it: written at the first
 * start, kept afterwards, and a start with another node id or cluster id refused, as Kafka refuses it.
 */
class MetaPropertiesTest {

    @TempDir
    Path root;

    private List<Path> dirs() {
        return List.of(root.resolve("a"), root.resolve("b"));
    }

    private static Properties read(Path dir) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(dir.resolve("meta.properties"))) {
            properties.load(reader);
        }
        return properties;
    }

    @Test
    void theFirstStartWritesKafkasVersionOneFileInEveryDirectory() throws IOException {
        MetaProperties.ensure(dirs(), "the-cluster", 7);

        Properties a = read(dirs().get(0));
        Properties b = read(dirs().get(1));
        assertThat(a).containsOnlyKeys("version", "cluster.id", "node.id", "directory.id")
                .containsEntry("version", "1").containsEntry("cluster.id", "the-cluster").containsEntry("node.id", "7");
        assertThat(a.getProperty("directory.id")).as("a Uuid in Kafka's text").hasSize(22);
        assertThat(b.getProperty("directory.id")).as("one id per directory").isNotEqualTo(a.getProperty("directory.id"));
    }

    @Test
    void aBrokerWritesItAtItsStart() throws Exception {
        Path logDir = root.resolve("broker");
        TestBrokers.start(logDir, Map.of("node.id", "3", "cluster.id", "a-cluster")).close();
        assertThat(read(logDir)).containsEntry("node.id", "3").containsEntry("cluster.id", "a-cluster");
    }

    /**
     * meta.properties is checked (and written) only once the directory's .lock is held, as Kafka's storage checks
     * run after its LogManager locks: a second broker on a directory in use stops at the lock, whatever its node id,
     * and never writes the file of a directory another broker holds.
     */
    @Test
    void aSecondBrokerOnADirectoryInUseStopsAtTheLock() throws Exception {
        Path logDir = root.resolve("broker");
        try (Broker first = TestBrokers.start(logDir, Map.of("node.id", "3", "cluster.id", "a-cluster"))) {
            String written = Files.readString(logDir.resolve("meta.properties"));
            assertThatThrownBy(() -> TestBrokers.start(logDir, Map.of("node.id", "4", "cluster.id", "a-cluster")))
                    .isInstanceOf(IOException.class).hasMessageContaining("another broker is using");
            assertThat(Files.readString(logDir.resolve("meta.properties"))).isEqualTo(written);
        }
    }

    @Test
    void laterStartsKeepTheFile() throws IOException {
        MetaProperties.ensure(dirs(), "the-cluster", 7);
        Path file = dirs().get(0).resolve("meta.properties");
        String written = Files.readString(file);
        FileTime longAgo = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(file, longAgo);

        MetaProperties.ensure(dirs(), "the-cluster", 7);
        assertThat(Files.readString(file)).isEqualTo(written);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(longAgo);
    }

    @Test
    void aStartWithAnotherNodeIdOrClusterIdIsRefused() throws IOException {
        MetaProperties.ensure(dirs(), "the-cluster", 7);

        assertThatThrownBy(() -> MetaProperties.ensure(dirs(), "the-cluster", 8)).isInstanceOf(IOException.class)
                .hasMessageContaining("node id 7").hasMessageContaining("8")
                .hasMessageContaining(dirs().get(0).resolve("meta.properties").toString());
        assertThatThrownBy(() -> MetaProperties.ensure(dirs(), "another-cluster", 7)).isInstanceOf(IOException.class)
                .hasMessageContaining("the-cluster").hasMessageContaining("another-cluster");
    }
}
