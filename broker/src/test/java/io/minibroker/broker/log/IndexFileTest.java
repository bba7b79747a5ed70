package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An index file is created at once but held open only from its first change (a descriptor per written index). */
class IndexFileTest {
    @TempDir
    Path dir;

    @Test
    void anUnwrittenIndexExistsButHoldsNoDescriptor() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        try (OffsetIndex index = OffsetIndex.open(path, 0, 0)) {
            assertThat(path).exists();
            assertThat(index.isOpen()).isFalse();
            index.flush(); // nothing to force, and no failure
        }
    }

    @Test
    void theFirstEntryOpensTheFileAndEntriesSurviveAReopen() throws Exception {
        Path path = dir.resolve("00000000000000000100.index");
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000)) {
            index.append(109, 4200);
            index.append(119, 8500);
            assertThat(index.isOpen()).isTrue();
        }
        assertThat(Files.size(path)).isEqualTo(2L * OffsetIndex.ENTRY_BYTES);
        try (OffsetIndex reopened = OffsetIndex.open(path, 100, 10_000)) {
            assertThat(reopened.wasCorrupt()).isFalse();
            assertThat(reopened.entries()).isEqualTo(2);
            assertThat(reopened.isOpen()).isFalse();
        }
    }

    @Test
    void aTornIndexIsEmptiedOnOpen() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        Files.write(path, new byte[OffsetIndex.ENTRY_BYTES + 3]);
        try (OffsetIndex index = OffsetIndex.open(path, 0, 10_000)) {
            assertThat(index.wasCorrupt()).isTrue();
            assertThat(Files.size(path)).isZero();
        }
    }
}
