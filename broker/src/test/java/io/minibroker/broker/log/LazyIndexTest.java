package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A trusted segment's indexes are read at their first use (Kafka's lazy index): an empty segment's not when it opens,
 * a non-empty segment's as it opens (its end state comes from their last entries). What is appended, read, searched
 * by time and truncated after such an opening is what it would be with indexes read at once.
 */
class LazyIndexTest {
    private static final TopicPartition TP = new TopicPartition("lazy", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final LogConfig CONFIG = LogConfig.defaults().withSegmentBytes(4096).withIndexIntervalBytes(150);

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private final List<Logger> watched = List.of((Logger) LoggerFactory.getLogger(LogSegment.class),
            (Logger) LoggerFactory.getLogger(IndexFile.class));
    private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();

    @BeforeEach
    void watchWarnings() {
        warnings.start();
        watched.forEach(logger -> logger.addAppender(warnings));
    }

    @AfterEach
    void stopWatching() {
        watched.forEach(logger -> logger.detachAppender(warnings));
    }

    /** How many times a segment said it rebuilt its indexes (a recovery from an index found missing or corrupt). */
    private long rebuilds() {
        return warnings("Rebuilding");
    }

    /**
     * How many times an index was found torn or disordered when its file was read, and emptied: what shows when a
     * file is read, as one torn behind the back of an opened index is found so only if read after that.
     */
    private long emptied() {
        return warnings("Emptied the index");
    }

    private long warnings(String startingWith) {
        return warnings.list.stream().filter(event -> event.getFormattedMessage().startsWith(startingWith)).count();
    }

    /** Tears the segment's offset index file (a size that is no multiple of an entry's). */
    private void tearOffsetIndex() throws IOException {
        Files.write(partitionDir().resolve(LogSegment.fileName(0, LogSegment.INDEX_SUFFIX)), new byte[] {1, 2, 3});
    }

    private Path partitionDir() {
        return logDir.resolve(TP.dirName());
    }

    private LogSegment openTrusted() throws IOException {
        Set<String> names = LogRecovery.listNames(partitionDir());
        return LogSegment.open(partitionDir(), 0, CONFIG, T0, true, names::contains);
    }

    @Test
    void anEmptySegmentOpensWithoutReadingItsIndexesAndTheFirstAppendIndexesAfterThem() throws Exception {
        Files.createDirectories(partitionDir());
        LogSegment.create(partitionDir(), 0, CONFIG, T0).close();
        try (LogSegment segment = openTrusted()) {
            tearOffsetIndex(); // after the opening: found torn only if read after it
            for (int i = 0; i < 10; i++) {
                TestBatches.append(segment, i * 3L, 3, T0 + i);
            }
            assertThat(emptied()).as("the index read when first used, by an append").isEqualTo(1);
            segment.flush();
        }
        assertThat(Files.size(partitionDir().resolve(LogSegment.fileName(0, LogSegment.INDEX_SUFFIX))))
                .isPositive();
        try (LogSegment reopened = openTrusted()) {
            tearOffsetIndex(); // after the opening: a segment with batches has read its indexes for its end state
            assertThat(reopened.nextOffset()).isEqualTo(30);
            BatchHeader header = new BatchHeader();
            assertThat(reopened.findBatch(25, reopened.size(), header)).isTrue();
            assertThat(header.baseOffset()).isEqualTo(24);
            assertThat(emptied()).as("the index not read again").isEqualTo(1);
        }
    }

    @Test
    void aCorruptIndexOfAnEmptySegmentIsEmptiedAtItsFirstUseAndThenIndexesWhatIsAppended() throws Exception {
        Files.createDirectories(partitionDir());
        LogSegment.create(partitionDir(), 0, CONFIG, T0).close();
        // An entry pointing past the end of the empty log: corrupt, found so only when first read.
        Files.write(partitionDir().resolve(LogSegment.fileName(0, LogSegment.INDEX_SUFFIX)), new byte[] {
            0, 0, 0, 5, 0, 0, 1, 0});
        try (LogSegment segment = openTrusted()) {
            assertThat(emptied()).as("not read on opening").isZero();
            for (int i = 0; i < 10; i++) {
                TestBatches.append(segment, i * 3L, 3, T0 + i);
            }
            assertThat(emptied()).as("read at its first use").isEqualTo(1);
            segment.flush();
        }
        // Reopened trusted, so that the index written after the emptying is read as it is, not rebuilt.
        try (LogSegment reopened = openTrusted()) {
            assertThat(emptied()).as("the index read on opening and found sound").isEqualTo(1);
            assertThat(rebuilds()).as("the index found sound").isZero();
            assertThat(reopened.nextOffset()).isEqualTo(30);
            BatchHeader header = new BatchHeader();
            for (long offset = 0; offset < 30; offset++) {
                assertThat(reopened.findBatch(offset, reopened.size(), header)).isTrue();
                assertThat(header.baseOffset()).as("the batch holding %d", offset).isEqualTo(offset / 3 * 3);
            }
        }
    }

    /**
     * A torn index found on opening is rebuilt by the segment's recovery; a later truncation of the segment then
     * takes the rebuilt index as sound, not as still corrupt (it would warn so and recover the whole segment again).
     */
    @Test
    void aTruncationAfterATornIndexWasRebuiltDoesNotRebuildItAgain() throws Exception {
        Files.createDirectories(partitionDir());
        try (LogSegment segment = LogSegment.create(partitionDir(), 0, CONFIG, T0)) {
            for (int i = 0; i < 10; i++) {
                TestBatches.append(segment, i * 3L, 3, T0 + i);
            }
            segment.flush();
        }
        Files.write(partitionDir().resolve(LogSegment.fileName(0, LogSegment.INDEX_SUFFIX)), new byte[] {1, 2, 3},
                StandardOpenOption.APPEND); // a torn last entry
        try (LogSegment segment = openTrusted()) {
            assertThat(rebuilds()).as("rebuilt on opening").isEqualTo(1);

            assertThat(segment.truncateTo(15)).isPositive();

            assertThat(rebuilds()).as("not again at the truncation").isEqualTo(1);
            assertThat(segment.nextOffset()).isEqualTo(15);
        }
    }

    /**
     * A clean restart takes each segment's end state from its indexes' last entries instead of rebuilding them: the
     * log then reads, searches, appends and truncates as before the restart, and as after a crash's rebuild.
     */
    @Test
    void aLogRestartedCleanlyFromItsIndexesReadsSearchesAppendsAndTruncatesAsBefore() throws Exception {
        PartitionLog log = TestLogs.open(logDir, TP, CONFIG, clock, 0, 0, true);
        for (int i = 0; i < 200; i++) {
            append(log, "a" + i, 1 + i % 3, T0 + i * 10);
        }
        assertThat(log.segmentCount()).isGreaterThan(3);
        List<TestBatches.Entry> before = readAll(log);
        Optional<TimestampAndOffset> byTime = log.offsetForTimestamp(T0 + 305);
        Optional<TimestampAndOffset> early = log.offsetForTimestamp(T0 + 105);
        assertThat(early).isPresent();
        log.close();

        log = TestLogs.open(logDir, TP, CONFIG, clock, Long.MAX_VALUE, 0, true);
        assertThat(log.offsetForTimestamp(T0 + 305)).isEqualTo(byTime);
        assertThat(readAll(log)).isEqualTo(before);
        long end = log.logEndOffset();
        append(log, "after", 2, T0 + 1000);
        assertThat(readAll(log)).hasSize(before.size() + 2);
        long cut = before.get(before.size() / 2).offset();
        log.truncateTo(cut);
        assertThat(readAll(log)).isEqualTo(before.subList(0, before.size() / 2));
        append(log, "again", 1, T0 + 2000);
        List<TestBatches.Entry> expected = readAll(log);
        assertThat(expected).hasSize(before.size() / 2 + 1);
        assertThat(end).isGreaterThan(cut);
        log.close();

        // After a crash the indexes are rebuilt from the log: the same records, found by time alike.
        log = TestLogs.open(logDir, TP, CONFIG, clock, 0, 0, false);
        try {
            assertThat(readAll(log)).isEqualTo(expected);
            assertThat(log.offsetForTimestamp(T0 + 105)).isEqualTo(early);
        } finally {
            log.close();
        }
    }
}
