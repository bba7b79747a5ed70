package io.minibroker.broker.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's partition.metadata: written when missing or different, left alone when it already names the topic. */
class TopicStoreTest {
    private static final FileTime LONG_AGO = FileTime.fromMillis(1_000_000_000_000L);

    @TempDir
    Path partitionDir;

    @Test
    void writesTheTopicIdInKafkasFormat() throws Exception {
        UUID id = UUID.randomUUID();
        TopicStore.writePartitionMetadata(partitionDir, id);
        assertThat(partitionDir.resolve(TopicStore.PARTITION_METADATA))
                .hasContent("version: 0\ntopic_id: " + TopicIds.toText(id));
    }

    @Test
    void leavesAFileThatAlreadyNamesTheTopicUntouched() throws Exception {
        UUID id = UUID.randomUUID();
        Path file = partitionDir.resolve(TopicStore.PARTITION_METADATA);
        TopicStore.writePartitionMetadata(partitionDir, id);
        Files.setLastModifiedTime(file, LONG_AGO);
        TopicStore.writePartitionMetadata(partitionDir, id);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(LONG_AGO);
    }

    @Test
    void rewritesAFileThatNamesAnotherTopic() throws Exception {
        UUID id = UUID.randomUUID();
        TopicStore.writePartitionMetadata(partitionDir, UUID.randomUUID());
        TopicStore.writePartitionMetadata(partitionDir, id);
        assertThat(partitionDir.resolve(TopicStore.PARTITION_METADATA))
                .hasContent("version: 0\ntopic_id: " + TopicIds.toText(id));
    }
}
