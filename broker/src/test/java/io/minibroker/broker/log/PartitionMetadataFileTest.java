package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.broker.topic.TopicIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's partition.metadata, as the registry writes it through a partition's log: written in Kafka's format when
 * missing or different, left alone when it already names the topic, also across a restart (the log reads it when it
 * opens).
 */
class PartitionMetadataFileTest {
    private static final FileTime LONG_AGO = FileTime.fromMillis(1_000_000_000_000L);
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @TempDir
    Path logDir;

    private Path file() {
        return logDir.resolve(TP.dirName()).resolve(PartitionMetadataFile.FILE_NAME);
    }

    /** Opens the partition's log (as a start does), writes the topic id through it, and closes it. */
    private void writeThroughLog(UUID topicId) throws IOException {
        try (PartitionLog log = TestLogs.open(logDir, TP, LogConfig.defaults(), CLOCK, 0, 0, true)) {
            log.partitionMetadata().writeTopicId(TopicIds.toText(topicId));
        }
    }

    @Test
    void writesTheTopicIdInKafkasFormat() throws Exception {
        UUID id = UUID.randomUUID();
        writeThroughLog(id);
        assertThat(Files.readString(file())).as("byte for byte: no line end after the id, as Kafka writes it")
                .isEqualTo("version: 0\ntopic_id: " + TopicIds.toText(id));
    }

    @Test
    void rewritesTheFileOfAnOlderBuildWithALineEndAfterTheId() throws Exception {
        UUID id = UUID.randomUUID();
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "version: 0\ntopic_id: " + TopicIds.toText(id) + "\n");
        writeThroughLog(id);
        assertThat(Files.readString(file())).isEqualTo("version: 0\ntopic_id: " + TopicIds.toText(id));
    }

    @Test
    void leavesAFileThatAlreadyNamesTheTopicUntouchedAfterARestart() throws Exception {
        UUID id = UUID.randomUUID();
        writeThroughLog(id);
        Files.setLastModifiedTime(file(), LONG_AGO);
        writeThroughLog(id);
        assertThat(Files.getLastModifiedTime(file())).isEqualTo(LONG_AGO);
    }

    @Test
    void rewritesAFileThatNamesAnotherTopic() throws Exception {
        UUID id = UUID.randomUUID();
        writeThroughLog(UUID.randomUUID());
        writeThroughLog(id);
        assertThat(file()).hasContent("version: 0\ntopic_id: " + TopicIds.toText(id));
    }

    @Test
    void rewritesAFileChangedBehindTheLogsBackAtTheNextStart() throws Exception {
        UUID id = UUID.randomUUID();
        writeThroughLog(id);
        Files.writeString(file(), "version: 0\ntopic_id: garbage\n");
        writeThroughLog(id);
        assertThat(file()).hasContent("version: 0\ntopic_id: " + TopicIds.toText(id));
    }
}
