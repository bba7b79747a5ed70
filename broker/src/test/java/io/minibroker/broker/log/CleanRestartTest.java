package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a clean shutdown a log of several segments opens trusted (no batch revalidated): reads, searches by time, the
 * largest timestamp, truncation and retention then answer as on the log before the restart, also for segments a
 * crash's recovery rebuilt or an older build wrote.
 */
class CleanRestartTest {
    private static final TopicPartition TP = new TopicPartition("clean-restart", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final LogConfig CONFIG = LogConfig.defaults().withSegmentBytes(4096).withIndexIntervalBytes(150);

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private PartitionLog log;
    /** What the log answered before it was closed. */
    private List<Long> bases;
    private List<TestBatches.Entry> records;
    private long logEnd;

    @BeforeEach
    void writeSeveralSegments() throws IOException {
        log = TestLogs.open(logDir, TP, CONFIG, clock, 0, 0, true);
        for (int i = 0; i < 200; i++) {
            append(log, "a" + i, 1 + i % 3, T0 + i * 10);
        }
        bases = baseOffsets();
        assertThat(bases).hasSizeGreaterThan(3);
        records = readAll(log);
        logEnd = log.logEndOffset();
    }

    @AfterEach
    void closeLog() throws IOException {
        log.close();
    }

    private List<Long> baseOffsets() {
        List<Long> found = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(found::add);
        return found;
    }

    private void reopenCleanly() throws IOException {
        log.close();
        log = TestLogs.open(logDir, TP, CONFIG, clock, Long.MAX_VALUE, 0, true);
    }

    /** Searches by time that land in every segment, and one past the end. */
    private List<Optional<TimestampAndOffset>> searchesByTime() {
        List<Optional<TimestampAndOffset>> found = new ArrayList<>();
        for (long at = T0 - 5; at <= T0 + 2005; at += 95) {
            found.add(log.offsetForTimestamp(at));
        }
        return found;
    }

    @Test
    void aCleanRestartAnswersReadsAndSearchesByTimeAsBefore() throws IOException {
        List<Optional<TimestampAndOffset>> byTime = searchesByTime();
        Optional<TimestampAndOffset> largest = log.maxTimestampAndOffset();

        reopenCleanly();

        assertThat(log.logEndOffset()).isEqualTo(logEnd);
        assertThat(baseOffsets()).isEqualTo(bases);

        long inSecond = bases.get(1) + 2; // a fetch from an old offset
        List<TestBatches.Entry> fetched = TestBatches.decode(log.read(inSecond, 1, true, Long.MAX_VALUE));
        assertThat(fetched).isNotEmpty();
        assertThat(fetched.get(0).offset()).isLessThanOrEqualTo(inSecond);

        assertThat(searchesByTime()).isEqualTo(byTime);
        assertThat(log.maxTimestampAndOffset()).isEqualTo(largest);
        assertThat(readAll(log)).isEqualTo(records);
    }

    @Test
    void aTruncationIntoARolledSegmentCutsItAndTheLogAppendsOnFromThere() throws IOException {
        reopenCleanly();
        long cut = bases.get(2) + 6; // past the segment's first two batches (of at most 3 records each)

        log.truncateTo(cut);

        List<TestBatches.Entry> kept = readAll(log);
        long keptEnd = kept.get(kept.size() - 1).offset() + 1; // the batch holding the cut went whole
        assertThat(keptEnd).isLessThanOrEqualTo(cut).isGreaterThan(bases.get(2));
        assertThat(kept).isEqualTo(records.stream().filter(r -> r.offset() < keptEnd).toList());
        assertThat(log.logEndOffset()).as("Kafka's: the log ends where it was cut").isEqualTo(cut);
        long end = log.logEndOffset();
        append(log, "after", 2, T0 + 5000);
        assertThat(log.offsetForTimestamp(T0 + 4000)).map(TimestampAndOffset::offset).contains(end);
        assertThat(log.maxTimestampAndOffset()).map(TimestampAndOffset::timestamp).contains(T0 + 5000);
    }

    /** A truncation to exactly a segment's base deletes it: the rolled segment before becomes the active one. */
    @Test
    void aRolledSegmentThatATruncationMakesActiveKeepsItsLargestTimestampWhenAppendedTo() throws IOException {
        log.close(); // reopened with room for more batches, so that the append below goes to the same segment
        log = TestLogs.open(logDir, TP, CONFIG.withSegmentBytes(1 << 20), clock, Long.MAX_VALUE, 0, true);
        long largestOfSecond = records.stream().filter(r -> r.offset() == bases.get(2) - 1).findFirst()
                .orElseThrow().timestamp();
        long firstWithIt = records.stream().filter(r -> r.timestamp() == largestOfSecond).findFirst().orElseThrow()
                .offset();

        log.truncateTo(bases.get(2));
        append(log, "older", 1, largestOfSecond - 50); // not the segment's largest

        assertThat(baseOffsets()).hasSize(2);
        assertThat(log.maxTimestampAndOffset()).map(TimestampAndOffset::offset).contains(firstWithIt);
        reopenCleanly();
        assertThat(log.maxTimestampAndOffset()).map(TimestampAndOffset::offset).contains(firstWithIt);
    }

    @Test
    void retentionDeletesTheSameSegmentsByTheirLargestTimestamp() throws IOException {
        long largestOfSecond = records.stream().filter(r -> r.offset() == bases.get(2) - 1).findFirst()
                .orElseThrow().timestamp();
        reopenCleanly();
        clock.set(largestOfSecond + 1_000);
        log.updateConfig(CONFIG.withRetention(1_000 - 1, -1)); // the first two segments' records are all older

        assertThat(log.deleteOldSegments()).isEqualTo(2);

        assertThat(log.logStartOffset()).isEqualTo(bases.get(2));
        assertThat(readAll(log)).isEqualTo(records.stream().filter(r -> r.offset() >= bases.get(2)).toList());
    }

    /** A crash's recovery leaves each rebuilt time index ending with its segment's largest timestamp, as a roll does. */
    @Test
    void aCleanRestartAfterARecoveryFindsTheSameTimestamps() throws IOException {
        List<Optional<TimestampAndOffset>> byTime = searchesByTime();
        Optional<TimestampAndOffset> largest = log.maxTimestampAndOffset();
        log.close();
        log = TestLogs.open(logDir, TP, CONFIG, clock, 0, 0, false);

        reopenCleanly();

        assertThat(searchesByTime()).isEqualTo(byTime);
        assertThat(log.maxTimestampAndOffset()).isEqualTo(largest);
        assertThat(readAll(log)).isEqualTo(records);
    }

    /**
     * A rolled segment whose time index lacks the entry of its largest timestamp, as the recovery and the cleaner of
     * builds before 2026-11-27 left it: that timestamp is still found (from the batches after the last entry).
     */
    @Test
    void aRolledSegmentWhoseTimeIndexDoesNotEndWithItsLargestTimestampKeepsIt() throws IOException {
        List<Optional<TimestampAndOffset>> byTime = searchesByTime();
        Optional<TimestampAndOffset> largest = log.maxTimestampAndOffset();
        long largestOfSecond = records.stream().filter(r -> r.offset() == bases.get(2) - 1).findFirst()
                .orElseThrow().timestamp();
        log.close();
        for (long base : bases.subList(0, bases.size() - 1)) {
            Path timeIndex = LogSegment.files(logDir.resolve(TP.dirName()), base, "")[2];
            try (FileChannel file = FileChannel.open(timeIndex, StandardOpenOption.WRITE)) {
                file.truncate(file.size() - TimeIndex.ENTRY_BYTES);
            }
        }

        log = TestLogs.open(logDir, TP, CONFIG, clock, Long.MAX_VALUE, 0, true);

        assertThat(searchesByTime()).isEqualTo(byTime);
        assertThat(log.maxTimestampAndOffset()).isEqualTo(largest);
        clock.set(largestOfSecond + 1_000);
        log.updateConfig(CONFIG.withRetention(1_000, -1)); // the second segment's largest is not older than that
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(bases.get(1));
    }
}
