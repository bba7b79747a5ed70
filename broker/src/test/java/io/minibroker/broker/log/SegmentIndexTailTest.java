package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment's index entries wait in memory until a page's worth has gathered: deleting the segment drops them
 * unwritten, and a page that cannot be written leaves them waiting without stopping the segment's appends.
 */
class SegmentIndexTailTest {
    private static final long T0 = 1_700_000_000_000L;
    /** An index entry for every batch. */
    private static final LogConfig EVERY_BATCH = LogConfig.defaults().withIndexIntervalBytes(0);

    @TempDir
    Path dir;

    @Test
    void deletingASegmentDoesNotWriteItsWaitingIndexEntries() throws Exception {
        LogSegment segment = LogSegment.create(dir, 0, EVERY_BATCH, T0);
        for (int i = 0; i < 10; i++) {
            TestBatches.append(segment, i, 1, T0 + i);
        }
        // The same files under a second name, which outlive the deletion: what was written to them shows there.
        Path offsets = Files.createLink(dir.resolve("offsets.link"), indexPath(LogSegment.INDEX_SUFFIX));
        Path times = Files.createLink(dir.resolve("times.link"), indexPath(LogSegment.TIME_INDEX_SUFFIX));

        segment.renameForDeletion();
        segment.deleteFiles();

        assertThat(indexPath(LogSegment.INDEX_SUFFIX)).doesNotExist();
        assertThat(indexPath(LogSegment.INDEX_SUFFIX + FileDeletions.DELETED_SUFFIX)).doesNotExist();
        assertThat(Files.size(offsets)).isZero();
        assertThat(Files.size(times)).isZero();
    }

    @Test
    void aPageOfIndexEntriesThatCannotBeWrittenLeavesTheSegmentAppending() throws Exception {
        LogSegment segment = LogSegment.create(dir, 0, EVERY_BATCH, T0);
        Files.delete(indexPath(LogSegment.INDEX_SUFFIX)); // not opened yet: its first write finds no file
        int batches = 2 * IndexFile.PAGE_BYTES / OffsetIndex.ENTRY_BYTES + 1;
        for (int i = 0; i < batches; i++) {
            TestBatches.append(segment, i, 1, T0 + i);
        }

        assertThat(segment.nextOffset()).isEqualTo(batches);
        LogReadResult last = segment.read(batches - 1, Integer.MAX_VALUE, true, Long.MAX_VALUE);
        assertThat(TestBatches.baseOffsets(last)).containsExactly((long) batches - 1);
        assertThatThrownBy(segment::flush).isInstanceOf(IOException.class); // the flush reports it
        segment.closeAndDelete();
    }

    private Path indexPath(String suffix) {
        return dir.resolve(LogSegment.fileName(0, suffix));
    }
}
