package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetCheckpointFileTest {
    @TempDir
    Path dir;

    @Test
    void writesKafkasTextFormatAndReadsItBack() throws IOException {
        Path path = dir.resolve(OffsetCheckpointFile.RECOVERY_POINT);
        OffsetCheckpointFile file = new OffsetCheckpointFile(path);
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("orders", 0), 1500L);
        offsets.put(new TopicPartition("my-topic", 3), 42L);

        file.write(offsets);

        assertThat(Files.readString(path, StandardCharsets.UTF_8)).isEqualTo("0\n2\norders 0 1500\nmy-topic 3 42\n");
        assertThat(file.read()).isEqualTo(offsets);
        assertThat(dir.resolve(OffsetCheckpointFile.RECOVERY_POINT + ".tmp")).doesNotExist();
    }

    @Test
    void rewritingReplacesTheWholeFile() throws IOException {
        OffsetCheckpointFile file = new OffsetCheckpointFile(dir.resolve("cp"));
        file.write(Map.of(new TopicPartition("a", 0), 1L, new TopicPartition("b", 1), 2L));
        file.write(Map.of(new TopicPartition("a", 0), 9L));
        assertThat(file.read()).isEqualTo(Map.of(new TopicPartition("a", 0), 9L));

        file.write(Map.of());
        assertThat(Files.readString(dir.resolve("cp"))).isEqualTo("0\n0\n");
        assertThat(file.read()).isEmpty();
    }

    @Test
    void aMissingFileReadsAsEmpty() throws IOException {
        assertThat(new OffsetCheckpointFile(dir.resolve("absent")).read()).isEmpty();
    }

    @Test
    void malformedFilesAreRefused() throws IOException {
        Path path = dir.resolve("cp");
        OffsetCheckpointFile file = new OffsetCheckpointFile(path);
        for (String text : new String[] {"1\n0\n", "0\n2\norders 0 1\n", "0\n1\norders 0\n", "0\n1\norders x 1\n", "", "0\n1\n -1 5\n"}) {
            Files.writeString(path, text);
            assertThatThrownBy(file::read).as(text).isInstanceOf(IOException.class);
        }
    }
}
