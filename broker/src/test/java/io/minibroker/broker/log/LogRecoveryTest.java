package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRecoveryTest {
    private static final TopicPartition TP = new TopicPartition("crash-test", 1);
    private static final long T0 = 1_700_000_000_000L;
    private static final LogConfig CONFIG = LogConfig.defaults().withSegmentBytes(4096).withIndexIntervalBytes(150);

    @TempDir
    Path root;
    private final MutableClock clock = new MutableClock(T0);

    /** Where one stored batch is: its segment file, position, size and offsets. */
    record StoredBatch(long segment, int position, int size, long baseOffset, long lastOffset) {
    }

    private Path logDir(int run) {
        return root.resolve("run" + run);
    }

    private Path partitionDir(int run) {
        return logDir(run).resolve(TP.dirName());
    }

    private PartitionLog fill(int run, int batches) throws IOException {
        PartitionLog log = TestLogs.open(logDir(run), TP, CONFIG, clock, 0, 0, true);
        for (int i = 0; i < batches; i++) {
            append(log, "v" + i, 1 + i % 3, T0 + i);
        }
        return log;
    }

    private PartitionLog reopenAfterCrash(int run) throws IOException {
        return TestLogs.open(logDir(run), TP, CONFIG, clock, 0, 0, false);
    }

    private List<StoredBatch> storedBatches(int run, long segment) throws IOException {
        byte[] bytes = Files.readAllBytes(partitionDir(run).resolve(LogSegment.fileName(segment, ".log")));
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        List<StoredBatch> batches = new ArrayList<>();
        RecordBatches iterator = RecordBatches.of(buf);
        int position = 0;
        while (iterator.hasNext()) {
            RecordBatch batch = iterator.next();
            batches.add(new StoredBatch(segment, position, batch.sizeInBytes(), batch.baseOffset(), batch.lastOffset()));
            position += batch.sizeInBytes();
        }
        return batches;
    }

    private static List<Long> segments(PartitionLog log) {
        List<Long> bases = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(bases::add);
        return bases;
    }

    private byte[] file(int run, long segment, String suffix) throws IOException {
        return Files.readAllBytes(partitionDir(run).resolve(LogSegment.fileName(segment, suffix)));
    }

    private void truncateFile(int run, long segment, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(partitionDir(run).resolve(LogSegment.fileName(segment, ".log")),
                StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }

    /** Index entries (of {@code entryBytes}) of {@code original} that the rebuilt index should keep. */
    private static byte[] prefix(byte[] original, int entryBytes, int entries) {
        return Arrays.copyOf(original, entryBytes * entries);
    }

    @Test
    void aTornTailIsCutAtTheLastCompleteBatchAndTheIndexesRebuilt() throws IOException {
        Random random = new Random(42);
        for (int run = 0; run < 25; run++) {
            PartitionLog log = fill(run, 30 + random.nextInt(40));
            List<TestBatches.Entry> before = readAll(log);
            long active = segments(log).get(segments(log).size() - 1);
            log.close();
            List<StoredBatch> batches = storedBatches(run, active);
            byte[] offsetIndex = file(run, active, ".index");
            long fileSize = Files.size(partitionDir(run).resolve(LogSegment.fileName(active, ".log")));
            long cut = random.nextLong(fileSize);
            truncateFile(run, active, cut);

            List<StoredBatch> kept = batches.stream().filter(b -> b.position() + b.size() <= cut).toList();
            long expectedEnd = kept.isEmpty() ? active : kept.get(kept.size() - 1).lastOffset() + 1;
            long expectedSize = kept.isEmpty() ? 0 : kept.get(kept.size() - 1).position() + kept.get(kept.size() - 1).size();

            log = reopenAfterCrash(run);
            assertThat(log.logEndOffset()).as("run %d cut at %d", run, cut).isEqualTo(expectedEnd);
            assertThat(Files.size(partitionDir(run).resolve(LogSegment.fileName(active, ".log")))).isEqualTo(expectedSize);
            assertThat(readAll(log)).isEqualTo(before.stream().filter(e -> e.offset() < expectedEnd).toList());
            int keptEntries = 0;
            for (int i = 0; i < offsetIndex.length; i += OffsetIndex.ENTRY_BYTES) {
                int position = Unpooled.wrappedBuffer(offsetIndex).getInt(i + 4);
                if (position < expectedSize) {
                    keptEntries++;
                }
            }
            assertThat(file(run, active, ".index")).isEqualTo(prefix(offsetIndex, OffsetIndex.ENTRY_BYTES, keptEntries));
            // The recovered log takes appends right after the last surviving batch.
            assertThat(append(log, "after", 2, T0 + 500).firstOffset()).isEqualTo(expectedEnd);
            log.close();
        }
    }

    @Test
    void aCorruptByteInTheLastBatchCutsThatBatch() throws IOException {
        Random random = new Random(7);
        for (int run = 0; run < 10; run++) {
            PartitionLog log = fill(run, 20);
            List<TestBatches.Entry> before = readAll(log);
            long active = segments(log).get(segments(log).size() - 1);
            log.close();
            List<StoredBatch> batches = storedBatches(run, active);
            StoredBatch last = batches.get(batches.size() - 1);
            // Anywhere from the magic byte to the end: the framing check or the CRC must catch it.
            int at = last.position() + 16 + random.nextInt(last.size() - 16);
            Path logFile = partitionDir(run).resolve(LogSegment.fileName(active, ".log"));
            byte[] bytes = Files.readAllBytes(logFile);
            bytes[at] ^= (byte) (1 << random.nextInt(8));
            Files.write(logFile, bytes);

            log = reopenAfterCrash(run);
            assertThat(log.logEndOffset()).isEqualTo(last.baseOffset());
            assertThat(readAll(log)).isEqualTo(before.stream().filter(e -> e.offset() < last.baseOffset()).toList());
            log.close();
        }
    }

    @Test
    void corruptionInAnEarlierSegmentDeletesTheSegmentsAfterIt() throws IOException {
        PartitionLog log = fill(0, 200);
        List<Long> bases = segments(log);
        assertThat(bases).hasSizeGreaterThan(3);
        List<TestBatches.Entry> before = readAll(log);
        log.close();
        long damaged = bases.get(1);
        List<StoredBatch> batches = storedBatches(0, damaged);
        StoredBatch third = batches.get(2);
        truncateFile(0, damaged, third.position() + 20);

        log = reopenAfterCrash(0);
        assertThat(segments(log)).containsExactly(bases.get(0), damaged);
        assertThat(log.logEndOffset()).isEqualTo(third.baseOffset());
        assertThat(readAll(log)).isEqualTo(before.stream().filter(e -> e.offset() < third.baseOffset()).toList());
        for (long gone : bases.subList(2, bases.size())) {
            assertThat(partitionDir(0).resolve(LogSegment.fileName(gone, ".log"))).doesNotExist();
            assertThat(partitionDir(0).resolve(LogSegment.fileName(gone, ".index"))).doesNotExist();
        }
        log.close();
    }

    @Test
    void segmentsBelowTheRecoveryPointAreTrustedAndTheRestRevalidated() throws IOException {
        PartitionLog log = fill(0, 120);
        List<Long> bases = segments(log);
        List<TestBatches.Entry> before = readAll(log);
        log.close();
        // A torn tail on the active segment, past a recovery point in the one before it.
        long active = bases.get(bases.size() - 1);
        List<StoredBatch> batches = storedBatches(0, active);
        truncateFile(0, active, batches.get(batches.size() - 1).position() + 5);

        log = TestLogs.open(logDir(0), TP, CONFIG, clock, bases.get(bases.size() - 2) + 1, 0, false);
        long end = batches.get(batches.size() - 1).baseOffset();
        assertThat(log.logEndOffset()).isEqualTo(end);
        assertThat(readAll(log)).isEqualTo(before.stream().filter(e -> e.offset() < end).toList());
        assertThat(log.recoveryPoint()).isEqualTo(end);
        log.close();
    }

    @Test
    void missingIndexFilesAreRebuiltFromTheLog() throws IOException {
        PartitionLog log = fill(0, 80);
        List<Long> bases = segments(log);
        List<TestBatches.Entry> before = readAll(log);
        log.close();
        long first = bases.get(0);
        byte[] offsetIndex = file(0, first, ".index");
        byte[] timeIndex = file(0, first, ".timeindex");
        Files.delete(partitionDir(0).resolve(LogSegment.fileName(first, ".index")));
        Files.delete(partitionDir(0).resolve(LogSegment.fileName(first, ".timeindex")));

        log = TestLogs.open(logDir(0), TP, CONFIG, clock, Long.MAX_VALUE, 0, true);
        assertThat(file(0, first, ".index")).isEqualTo(offsetIndex);
        // A rolled segment's time index ends with its final max timestamp, which a rebuild adds only on roll.
        assertThat(timeIndex).startsWith(file(0, first, ".timeindex"));
        assertThat(readAll(log)).isEqualTo(before);
        assertThat(log.offsetForTimestamp(T0 + 3)).contains(new TimestampAndOffset(T0 + 3, 6));
        log.close();
    }

    @Test
    void tornOrDisorderedIndexFilesAreRebuiltFromTheLog() throws IOException {
        PartitionLog log = fill(0, 40);
        long active = segments(log).get(segments(log).size() - 1);
        List<TestBatches.Entry> before = readAll(log);
        log.close();
        byte[] offsetIndex = file(0, active, ".index");
        assertThat(offsetIndex.length).isGreaterThanOrEqualTo(2 * OffsetIndex.ENTRY_BYTES);
        Path indexFile = partitionDir(0).resolve(LogSegment.fileName(active, ".index"));
        Path timeIndexFile = partitionDir(0).resolve(LogSegment.fileName(active, ".timeindex"));
        byte[] disordered = offsetIndex.clone();
        // Swap the first two entries: offsets no longer increase.
        System.arraycopy(offsetIndex, 0, disordered, 8, 8);
        System.arraycopy(offsetIndex, 8, disordered, 0, 8);
        Files.write(indexFile, disordered);
        Files.write(timeIndexFile, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);

        log = TestLogs.open(logDir(0), TP, CONFIG, clock, Long.MAX_VALUE, 0, true);
        assertThat(Files.readAllBytes(indexFile)).isEqualTo(offsetIndex);
        assertThat(Files.size(timeIndexFile) % TimeIndex.ENTRY_BYTES).isZero();
        assertThat(readAll(log)).isEqualTo(before);
        log.close();
    }

    @Test
    void anIndexPointingPastTheEndOfTheLogIsRebuilt() throws IOException {
        PartitionLog log = fill(0, 40);
        long active = segments(log).get(segments(log).size() - 1);
        log.close();
        byte[] offsetIndex = file(0, active, ".index");
        ByteBuf bogus = Unpooled.buffer().writeBytes(offsetIndex).writeInt(100_000).writeInt(1 << 30);
        Files.write(partitionDir(0).resolve(LogSegment.fileName(active, ".index")), Arrays.copyOf(bogus.array(), bogus.writerIndex()));

        log = TestLogs.open(logDir(0), TP, CONFIG, clock, Long.MAX_VALUE, 0, true);
        assertThat(file(0, active, ".index")).isEqualTo(offsetIndex);
        log.close();
    }

    /** The files of a log as a crash would leave them: what has been written so far, with the log still open. */
    private void copyAsCrashed(int fromRun, int toRun) throws IOException {
        Files.createDirectories(partitionDir(toRun));
        try (var files = Files.list(partitionDir(fromRun))) {
            for (Path file : files.toList()) {
                Files.copy(file, partitionDir(toRun).resolve(file.getFileName()));
            }
        }
    }

    @Test
    void indexEntriesHeldInMemoryAtACrashAreRebuiltFromTheLog() throws IOException {
        LogConfig oneSegment = CONFIG.withSegmentBytes(1 << 20);
        PartitionLog log = TestLogs.open(logDir(0), TP, oneSegment, clock, 0, 0, true);
        for (int i = 0; i < 1500; i++) { // more than a page of offset index entries: one page written, the rest not
            append(log, "v" + i, 1 + i % 3, T0 + i);
        }
        List<TestBatches.Entry> before = readAll(log);
        copyAsCrashed(0, 1);
        log.close(); // writes the entries out: the index a crash lost the end of
        byte[] offsetIndex = file(0, 0, ".index");
        byte[] timeIndex = file(0, 0, ".timeindex");
        byte[] crashedIndex = file(1, 0, ".index");
        assertThat(crashedIndex).hasSize(IndexFile.PAGE_BYTES);
        assertThat(offsetIndex.length).isGreaterThan(crashedIndex.length);
        assertThat(offsetIndex).startsWith(crashedIndex);

        PartitionLog recovered = TestLogs.open(logDir(1), TP, oneSegment, clock, 0, 0, false);
        assertThat(readAll(recovered)).isEqualTo(before);
        assertThat(recovered.offsetForTimestamp(T0 + 1250)).contains(new TimestampAndOffset(T0 + 1250, before.stream()
                .filter(e -> e.timestamp() == T0 + 1250).findFirst().orElseThrow().offset()));
        recovered.close();
        assertThat(file(1, 0, ".index")).isEqualTo(offsetIndex);
        // Recovery ends the time index with the segment's largest timestamp, as a roll does.
        assertThat(file(1, 0, ".timeindex")).startsWith(timeIndex);
    }

    @Test
    void theSegmentsAFlushMakesTrustedHaveTheirIndexesWholeOnDisk() throws IOException {
        PartitionLog log = fill(0, 120);
        List<Long> bases = segments(log);
        List<TestBatches.Entry> before = readAll(log);
        log.flush();
        copyAsCrashed(0, 1);
        log.close();
        long lastRolled = bases.get(bases.size() - 2);
        for (long base : bases.subList(0, bases.size() - 1)) {
            assertThat(file(1, base, ".index")).as("segment %d", base).isEqualTo(file(0, base, ".index"));
            assertThat(file(1, base, ".timeindex")).as("segment %d", base).isEqualTo(file(0, base, ".timeindex"));
        }
        PartitionLog recovered = TestLogs.open(logDir(1), TP, CONFIG, clock, lastRolled + 1, 0, false);
        assertThat(readAll(recovered)).isEqualTo(before);
        recovered.close();
    }
}
