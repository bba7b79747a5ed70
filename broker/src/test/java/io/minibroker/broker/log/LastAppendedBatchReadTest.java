package io.minibroker.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read at or after the last appended batch (a consumer at the log end, woken by that append) starts at that batch,
 * not at the offset index's entry before it: the headers of the batches in between are not read. Shown by spoiling
 * the first batch's length on disk, which stops any scan that reads it.
 */
class LastAppendedBatchReadTest {
    private static final long T0 = 1_700_000_000_000L;
    /** Small batches under the default index.interval.bytes (4096): no offset index entry, every scan starts at 0. */
    private static final int BATCHES = 20;

    @TempDir
    Path dir;

    @Test
    void aReadOfTheLastAppendedBatchReadsNoHeaderBeforeIt() throws Exception {
        LogSegment segment = appendBatches();
        spoilFirstBatchLength();

        LogReadResult last = segment.read(BATCHES - 1, Integer.MAX_VALUE, true, Long.MAX_VALUE);

        assertThat(TestBatches.baseOffsets(last)).containsExactly((long) BATCHES - 1);
        segment.close();
    }

    @Test
    void aReadBelowTheLastAppendedBatchStillScansFromTheIndex() throws Exception {
        LogSegment segment = appendBatches();
        spoilFirstBatchLength();

        // The scan from position 0 meets the spoiled length: nothing readable reaches the offset.
        assertThat(segment.read(BATCHES - 2, Integer.MAX_VALUE, true, Long.MAX_VALUE)).isNull();
        segment.close();
    }

    @Test
    void aReadAfterATruncationFindsTheBatchesAppendedSince() throws Exception {
        LogSegment segment = appendBatches();
        segment.truncateTo(5);
        TestBatches.append(segment, 5, 10, T0 + 5); // offsets 5..14, where batches 5..14 of one record each were

        assertThat(TestBatches.baseOffsets(segment.read(9, Integer.MAX_VALUE, true, Long.MAX_VALUE))).containsExactly(5L);
        assertThat(segment.read(15, Integer.MAX_VALUE, true, Long.MAX_VALUE)).isNull();
        segment.close();
    }

    private LogSegment appendBatches() throws Exception {
        LogSegment segment = LogSegment.create(dir, 0, LogConfig.defaults(), T0);
        for (int i = 0; i < BATCHES; i++) {
            TestBatches.append(segment, i, 1, T0 + i);
        }
        return segment;
    }

    private void spoilFirstBatchLength() throws Exception {
        Path log = dir.resolve(LogSegment.fileName(0, LogSegment.LOG_SUFFIX));
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).putInt(0, 0), Long.BYTES); // the length after the base offset
        }
    }
}
