package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index file is created at once but held open only from its first change (a descriptor per written index); a
 * lazily opened one is read at the first use of its entries. New entries reach the file a page at a time, or at a
 * flush, roll or close.
 */
class IndexFileTest {
    @TempDir
    Path dir;

    @Test
    void anUnwrittenIndexExistsButHoldsNoDescriptor() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        try (OffsetIndex index = OffsetIndex.open(path, 0, 0, false, false)) {
            assertThat(path).exists();
            assertThat(index.isOpen()).isFalse();
            index.flush(); // nothing to force, and no failure
        }
    }

    @Test
    void theFirstWriteOpensTheFileAndEntriesSurviveAReopen() throws Exception {
        Path path = dir.resolve("00000000000000000100.index");
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000, false, false)) {
            index.append(109, 4200);
            index.append(119, 8500);
            assertThat(index.isOpen()).isFalse(); // the entries wait in memory
            index.flush();
            assertThat(index.isOpen()).isTrue();
        }
        assertThat(Files.size(path)).isEqualTo(2L * OffsetIndex.ENTRY_BYTES);
        try (OffsetIndex reopened = OffsetIndex.open(path, 100, 10_000, true, false)) {
            assertThat(reopened.wasCorrupt()).isFalse();
            assertThat(reopened.entries()).isEqualTo(2);
            assertThat(reopened.isOpen()).isFalse();
        }
    }

    @Test
    void aTornIndexIsEmptiedOnOpen() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        Files.write(path, new byte[OffsetIndex.ENTRY_BYTES + 3]);
        try (OffsetIndex index = OffsetIndex.open(path, 0, 10_000, true, false)) {
            assertThat(index.wasCorrupt()).isTrue();
            assertThat(Files.size(path)).isZero();
        }
    }

    @Test
    void clearingAnEmptyIndexHoldsNoDescriptor() throws Exception {
        Path path = dir.resolve("00000000000000000000.timeindex");
        TimeIndex.open(path, 0, false, false).close();
        try (TimeIndex index = TimeIndex.open(path, 0, true, false)) {
            index.clear(); // what recovering an empty segment does
            assertThat(index.isOpen()).isFalse();
        }
    }

    /** Two entries at (109, 4200) and (119, 8500) in a file of a segment based at 100. */
    private Path twoEntries() throws Exception {
        return offsetIndex("00000000000000000100.index", 4200, 8500);
    }

    /** An index of a segment based at 100 with entries at (109, {@code first}) and (119, {@code second}). */
    private Path offsetIndex(String name, int first, int second) throws Exception {
        Path path = dir.resolve(name);
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000, false, false)) {
            index.append(109, first);
            index.append(119, second);
        }
        return path;
    }

    /** Gives {@code path} the entries of the file {@code with}, behind the back of an index opened on it. */
    private static void replace(Path path, Path with) throws Exception {
        Files.move(with, path, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aLazyIndexIsReadAtItsFirstLookupAnEagerOneOnOpen() throws Exception {
        Path path = twoEntries();
        try (OffsetIndex lazy = OffsetIndex.open(path, 100, 10_000, true, true);
             OffsetIndex eager = OffsetIndex.open(path, 100, 10_000, true, false)) {
            replace(path, offsetIndex("other.index", 1000, 2000)); // after the openings
            assertThat(lazy.lookup(115)).isEqualTo(1000);
            assertThat(lazy.lastPosition()).isEqualTo(2000);
            assertThat(eager.lookup(115)).isEqualTo(4200);
            assertThat(eager.lastPosition()).isEqualTo(8500);
        }
    }

    @Test
    void aLazyIndexAppendsAfterTheEntriesOnDisk() throws Exception {
        Path path = twoEntries();
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000, true, true)) {
            index.append(129, 9000);
        }
        try (OffsetIndex reopened = OffsetIndex.open(path, 100, 10_000, true, false)) {
            assertThat(reopened.wasCorrupt()).isFalse();
            assertThat(reopened.entries()).isEqualTo(3);
            assertThat(reopened.lookup(125)).isEqualTo(8500);
            assertThat(reopened.lookup(130)).isEqualTo(9000);
        }
    }

    @Test
    void aLazyIndexTruncatesTheEntriesOnDisk() throws Exception {
        Path path = twoEntries();
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000, true, true)) {
            index.truncateToPosition(8500);
            assertThat(index.entries()).isEqualTo(1);
        }
        assertThat(Files.size(path)).isEqualTo(OffsetIndex.ENTRY_BYTES);
    }

    @Test
    void aTornLazyIndexIsEmptiedAtItsFirstUseAndLookupsScanFromTheStart() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        Files.write(path, new byte[OffsetIndex.ENTRY_BYTES + 3]);
        try (OffsetIndex index = OffsetIndex.open(path, 0, 10_000, true, true)) {
            assertThat(Files.size(path)).isEqualTo(OffsetIndex.ENTRY_BYTES + 3L); // not read yet
            assertThat(index.lookup(5)).isZero();
            assertThat(index.wasCorrupt()).isTrue();
            assertThat(Files.size(path)).isZero();
        }
    }

    @Test
    void aLazyTimeIndexIsReadAtItsFirstSearch() throws Exception {
        Path path = timeIndex("00000000000000000100.timeindex", 1000, 104, 1500, 119);
        try (TimeIndex index = TimeIndex.open(path, 100, true, true)) {
            replace(path, timeIndex("other.timeindex", 1100, 107, 1600, 119)); // after the opening: found when used
            assertThat(index.lastOffsetBefore(1200)).isEqualTo(107);
            assertThat(index.lastTimestamp()).isEqualTo(1600);
            index.truncateToOffset(119);
            assertThat(index.lastTimestamp()).isEqualTo(1100);
        }
        assertThat(Files.size(path)).isEqualTo(TimeIndex.ENTRY_BYTES);
    }

    @Test
    void newEntriesReachTheFileAPageAtATime() throws Exception {
        Path path = dir.resolve("00000000000000000000.index");
        int perPage = IndexFile.PAGE_BYTES / OffsetIndex.ENTRY_BYTES;
        try (OffsetIndex index = OffsetIndex.open(path, 0, Integer.MAX_VALUE, false, false)) {
            for (int i = 1; i < perPage; i++) {
                index.append(i, i * 100);
            }
            assertThat(Files.size(path)).isZero();
            assertThat(index.lookup(perPage - 1)).isEqualTo((perPage - 1) * 100); // read from memory
            index.append(perPage, perPage * 100);
            assertThat(Files.size(path)).isEqualTo(IndexFile.PAGE_BYTES);
            index.append(perPage + 1, (perPage + 1) * 100);
            assertThat(Files.size(path)).isEqualTo(IndexFile.PAGE_BYTES);
            index.flush();
            assertThat(Files.size(path)).isEqualTo(IndexFile.PAGE_BYTES + OffsetIndex.ENTRY_BYTES);
        }
        try (OffsetIndex reopened = OffsetIndex.open(path, 0, Integer.MAX_VALUE, true, false)) {
            assertThat(reopened.entries()).isEqualTo(perPage + 1);
            assertThat(reopened.lookup(perPage + 5)).isEqualTo((perPage + 1) * 100);
        }
    }

    @Test
    void truncatingEntriesNotWrittenYetLeavesTheFileAlone() throws Exception {
        Path path = twoEntries();
        try (OffsetIndex index = OffsetIndex.open(path, 100, 10_000, true, false)) {
            index.append(129, 9000);
            index.append(139, 9500);
            index.truncateToPosition(9500); // drops (139, 9500), which only memory holds
            assertThat(index.isOpen()).isFalse();
            index.truncateToPosition(8500); // drops (129, 9000) and (119, 8500), which the file holds
            assertThat(Files.size(path)).isEqualTo(OffsetIndex.ENTRY_BYTES);
            index.append(149, 9900);
        }
        try (OffsetIndex reopened = OffsetIndex.open(path, 100, 10_000, true, false)) {
            assertThat(reopened.entries()).isEqualTo(2);
            assertThat(reopened.lookup(140)).isEqualTo(4200);
            assertThat(reopened.lookup(149)).isEqualTo(9900);
        }
    }

    @Test
    void anIndexRenamedForDeletionDoesNotWriteItsTail() throws Exception {
        Path path = dir.resolve("00000000000000000000.timeindex");
        Path renamed = dir.resolve("00000000000000000000.timeindex.deleted");
        TimeIndex index = TimeIndex.open(path, 0, false, false);
        index.maybeAppend(1000, 4);
        index.renameForDeletion();
        assertThat(path).doesNotExist();
        assertThat(renamed).isEmptyFile();
        index.flush(); // a flush that took the segment before retention deleted it: nothing to write
        assertThat(path).doesNotExist();
        assertThat(renamed).isEmptyFile();
        index.deleteIfExists();
        assertThat(renamed).doesNotExist();
    }

    /** A time index of a segment based at 100 with the two entries given. */
    private Path timeIndex(String name, long firstTimestamp, long firstOffset, long secondTimestamp,
                           long secondOffset) throws Exception {
        Path path = dir.resolve(name);
        try (TimeIndex index = TimeIndex.open(path, 100, false, false)) {
            index.maybeAppend(firstTimestamp, firstOffset);
            index.maybeAppend(secondTimestamp, secondOffset);
        }
        return path;
    }
}
