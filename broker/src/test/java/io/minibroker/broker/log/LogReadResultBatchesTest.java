package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read's batches by their headers alone, and a slice of them, as a share fetch uses them. */
class LogReadResultBatchesTest {
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;
    private PartitionLog log;

    @BeforeEach
    void openLog() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("t", 0), LogConfig.defaults(), new MutableClock(T0), 0, 0,
                true);
    }

    @AfterEach
    void closeLog() throws IOException {
        log.close();
    }

    private static List<FileChannelRecordBatch> batches(LogReadResult read) {
        List<FileChannelRecordBatch> batches = new ArrayList<>();
        read.batches().forEach(batches::add);
        return batches;
    }

    @Test
    void walksTheWholeBatchesOfAReadAndSlicesThem() throws IOException {
        append(log, "a", 3, T0);
        append(log, "b", 2, T0);
        append(log, "c", 4, T0);
        LogReadResult whole = log.read(0, 1 << 20, true, Long.MAX_VALUE);
        List<FileChannelRecordBatch> all = batches(whole);
        whole.release();
        assertThat(all).extracting(FileChannelRecordBatch::baseOffset).containsExactly(0L, 3L, 5L);
        assertThat(all).extracting(FileChannelRecordBatch::lastOffset).containsExactly(2L, 4L, 8L);
        assertThat(all.get(1).position()).isEqualTo(all.get(0).end());
        assertThat(all.get(0).producerId()).isEqualTo(-1L);
        assertThat(all.get(0).isTransactional()).isFalse();
        assertThat(all.get(0).isControl()).isFalse();

        // A read cut inside the third batch: that batch is not among its batches, as a consumer skips it.
        LogReadResult cut = log.read(0, all.get(2).position() + 10, true, Long.MAX_VALUE);
        List<FileChannelRecordBatch> cutBatches = batches(cut);
        assertThat(cutBatches).extracting(FileChannelRecordBatch::baseOffset).containsExactly(0L, 3L);
        LogReadResult slice = cut.slice(cutBatches.get(1), cutBatches.get(1));
        assertThat(slice.length()).isEqualTo(cutBatches.get(1).sizeInBytes());
        assertThat(slice.firstOffset()).isEqualTo(3L);
        assertThatThrownBy(() -> cut.slice(cutBatches.get(0), cutBatches.get(0))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cut.batches().iterator().hasNext()).isInstanceOf(IllegalStateException.class);
        assertThat(decode(slice)).extracting(TestBatches.Entry::value).containsExactly("b-0", "b-1");
    }

    /**
     * The first batch comes from the read's own look-up, its header not read a second time: shown by spoiling that
     * header on disk after the read, which a second read of it would find impossible and stop at.
     */
    @Test
    void theFirstBatchIsTheLookUpsNotReadAgain() throws IOException {
        append(log, "a", 3, T0);
        append(log, "b", 2, T0);
        LogReadResult read = log.read(0, 1 << 20, true, Long.MAX_VALUE);
        try (Stream<Path> files = Files.walk(logDir);
             FileChannel segment = FileChannel.open(files.filter(f -> f.toString().endsWith(".log")).findFirst()
                     .orElseThrow(), StandardOpenOption.WRITE)) {
            segment.write(ByteBuffer.allocate(4), 8); // the first batch's length, at 8: zero is impossible
        }

        List<FileChannelRecordBatch> walked = batches(read);
        read.release();

        assertThat(walked).extracting(FileChannelRecordBatch::baseOffset).containsExactly(0L, 3L);
        assertThat(walked.get(1).position()).isEqualTo(walked.get(0).end());
    }
}
