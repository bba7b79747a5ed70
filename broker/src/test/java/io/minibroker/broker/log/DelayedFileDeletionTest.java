package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.decode;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.time.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's asynchronous deletion: a deleted segment's files are renamed {@code .deleted} at once and deleted
 * {@code file.delete.delay.ms} later on the broker's scheduler, a deleted log's directory renamed
 * {@code <topic>-<partition>.<id>-delete} and deleted {@code log.segment.delete.delay.ms} later; what a stop leaves is
 * deleted at the next open. Time is a manual clock's: its advance runs the deletions it makes due before it returns.
 */
class DelayedFileDeletionTest {
    private static final long NEVER = Long.MAX_VALUE;
    private static final long FILE_DELETE_DELAY_MS = 30_000;
    private static final long LOG_DELETE_DELAY_MS = 45_000;
    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final List<String> SEGMENT_SUFFIXES = List.of(LogSegment.LOG_SUFFIX, LogSegment.INDEX_SUFFIX,
            LogSegment.TIME_INDEX_SUFFIX);

    @TempDir
    Path logDir;
    private final ManualClock manualClock = new ManualClock();
    private final BrokerClock clock = BrokerClock.manual(manualClock);
    private final LogConfig config = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200)
            .withFileDeleteDelayMs(FILE_DELETE_DELAY_MS);
    private LogManager manager;
    private LogMaintenance maintenance;

    @BeforeEach
    void start() throws IOException {
        manager = new LogManager(List.of(logDir), topic -> config, clock.wallClock(), 1, Long.MAX_VALUE,
                () -> LOG_DELETE_DELAY_MS);
        manager.startup();
        maintenance = new LogMaintenance(manager, clock, NEVER, NEVER, NEVER, () -> true);
        manager.deleteFilesOn(maintenance);
    }

    @AfterEach
    void stop() throws Exception {
        maintenance.close();
        manager.close();
    }

    private PartitionLog logWithSegments(int segments) throws IOException {
        PartitionLog log = manager.getOrCreateLog(TP);
        for (int i = 0; log.segmentCount() < segments; i++) {
            append(log, "record-" + i, 5, clock.wallClockMs());
        }
        return log;
    }

    private Path segmentFile(PartitionLog log, long baseOffset, String suffix) {
        return log.dir().resolve(LogSegment.fileName(baseOffset, suffix));
    }

    /** Asserts the segment's files are renamed for deletion: gone under their names, there with the suffix. */
    private void assertRenamedForDeletion(PartitionLog log, long baseOffset) {
        for (String suffix : SEGMENT_SUFFIXES) {
            assertThat(segmentFile(log, baseOffset, suffix)).doesNotExist();
            assertThat(segmentFile(log, baseOffset, suffix + FileDeletions.DELETED_SUFFIX)).exists();
        }
    }

    private void assertGone(PartitionLog log, long baseOffset) {
        for (String suffix : SEGMENT_SUFFIXES) {
            assertThat(segmentFile(log, baseOffset, suffix)).doesNotExist();
            assertThat(segmentFile(log, baseOffset, suffix + FileDeletions.DELETED_SUFFIX)).doesNotExist();
        }
    }

    @Test
    void retentionRenamesASegmentAtOnceAndDeletesItAfterFileDeleteDelayMsWhileAFetchOfItStillReadsIt()
            throws IOException {
        PartitionLog log = logWithSegments(3);
        log.updateConfig(config.withRetention(-1, 0));
        LogReadResult fetched = log.read(0, 1 << 20, true, Long.MAX_VALUE);
        List<TestBatches.Entry> expected = decode(log.read(0, 1 << 20, true, Long.MAX_VALUE));

        assertThat(log.deleteOldSegments()).as("retention.bytes=0: every segment, after a roll").isEqualTo(3);
        long active = log.segmentBaseOffsets().next(); // the one rolled, empty
        assertRenamedForDeletion(log, 0);

        manualClock.advance(FILE_DELETE_DELAY_MS - 1);
        assertRenamedForDeletion(log, 0);
        manualClock.advance(1);
        assertGone(log, 0);
        assertThat(segmentFile(log, active, LogSegment.LOG_SUFFIX)).exists();

        assertThat(decode(fetched)).as("the fetch that held the segment reads it whole").isEqualTo(expected)
                .isNotEmpty();
    }

    @Test
    void deleteRecordsRenamesTheSegmentsBelowTheNewLogStartAndDeletesThemAfterTheDelay() throws IOException {
        PartitionLog log = logWithSegments(3);
        Long[] bases = new Long[3];
        var it = log.segmentBaseOffsets();
        for (int i = 0; i < 3; i++) {
            bases[i] = it.next();
        }

        assertThat(log.deleteRecordsBefore(bases[2])).isEqualTo(bases[2]);
        assertRenamedForDeletion(log, bases[0]);
        assertRenamedForDeletion(log, bases[1]);
        append(log, "after", 2, clock.wallClockMs()); // the partition takes appends meanwhile

        manualClock.advance(FILE_DELETE_DELAY_MS);
        assertGone(log, bases[0]);
        assertGone(log, bases[1]);
        assertThat(readAll(log)).isNotEmpty().allSatisfy(entry -> assertThat(entry.offset()).isGreaterThanOrEqualTo(
                bases[2]));
    }

    @Test
    void onTheSystemClockTheMaintenanceThreadDeletesTheRenamedFiles() throws Exception {
        stop();
        manager = new LogManager(List.of(logDir), topic -> config.withFileDeleteDelayMs(0),
                BrokerClock.system().wallClock(), 1, Long.MAX_VALUE, () -> LOG_DELETE_DELAY_MS);
        manager.startup();
        maintenance = new LogMaintenance(manager, BrokerClock.system(), NEVER, NEVER, NEVER, () -> true);
        manager.deleteFilesOn(maintenance);
        PartitionLog log = logWithSegments(2);

        log.deleteRecordsBefore(log.logEndOffset()); // the first segment is wholly below it: it goes

        Path renamed = segmentFile(log, 0, LogSegment.LOG_SUFFIX + FileDeletions.DELETED_SUFFIX);
        Eventually.await(() -> !Files.exists(renamed), "the renamed log file deleted by log-maintenance");
        assertGone(log, 0);
    }

    @Test
    void aTruncatedSegmentIsRenamedAndItsBaseOffsetFreeForTheNextRoll() throws IOException {
        PartitionLog log = logWithSegments(3);
        var it = log.segmentBaseOffsets();
        it.next();
        long second = it.next();
        long third = it.next();

        log.truncateTo(third); // a follower matching its leader: the last segment goes
        assertRenamedForDeletion(log, third);
        synchronized (log) {
            log.roll(third, clock.wallClockMs()); // a new segment at the truncated one's base offset
        }
        append(log, "again", 5, clock.wallClockMs());
        assertThat(segmentFile(log, third, LogSegment.LOG_SUFFIX)).exists();

        manualClock.advance(FILE_DELETE_DELAY_MS);
        assertThat(segmentFile(log, third, LogSegment.LOG_SUFFIX + FileDeletions.DELETED_SUFFIX)).doesNotExist();
        assertThat(segmentFile(log, third, LogSegment.LOG_SUFFIX)).as("the new segment's file stays").exists();
        assertThat(decode(log.read(third, 1 << 20, true, Long.MAX_VALUE))).extracting(TestBatches.Entry::value)
                .containsExactly("again-0", "again-1", "again-2", "again-3", "again-4");
        assertThat(segmentFile(log, second, LogSegment.LOG_SUFFIX)).exists();
    }

    @Test
    void aDeletedLogsDirectoryIsRenamedAtOnceAndDeletedAfterLogSegmentDeleteDelayMs() throws IOException {
        PartitionLog log = logWithSegments(2);
        Path dir = log.dir();
        LogReadResult fetched = log.read(0, 1 << 20, true, Long.MAX_VALUE);

        assertThat(manager.deleteLog(TP)).isTrue();
        assertThat(dir).doesNotExist();
        Path renamed = log.dir();
        assertThat(renamed.getParent()).isEqualTo(logDir);
        assertThat(renamed.getFileName().toString()).matches("orders-0\\.[0-9a-f]{32}-delete");
        assertThat(renamed.resolve(LogSegment.fileName(0, LogSegment.LOG_SUFFIX))).exists();
        PartitionLog recreated = manager.getOrCreateLog(TP); // a topic of the same name, at once
        assertThat(recreated.dir()).isEqualTo(dir).exists();
        append(recreated, "new", 1, clock.wallClockMs());

        manualClock.advance(LOG_DELETE_DELAY_MS - 1);
        assertThat(renamed).exists();
        manualClock.advance(1);
        assertThat(renamed).doesNotExist();
        assertThat(readAll(recreated)).hasSize(1);
        assertThat(decode(fetched)).as("a fetch that held the deleted log's segment").isNotEmpty();
    }

    @Test
    void whatAStopLeftRenamedForDeletionIsDeletedAtTheNextOpen() throws Exception {
        PartitionLog log = logWithSegments(3);
        List<TestBatches.Entry> kept = readAll(log);
        log.updateConfig(config.withRetention(-1, 0));
        log.deleteOldSegments();
        List<TestBatches.Entry> left = readAll(log);
        assertThat(left).hasSizeLessThan(kept.size());
        manager.getOrCreateLog(new TopicPartition("gone", 0));
        manager.deleteLog(new TopicPartition("gone", 0));
        stop(); // before the delays: the deletions are dropped, not waited for
        try (Stream<Path> files = Files.list(logDir)) {
            assertThat(files.map(path -> path.getFileName().toString())).anyMatch(name -> name.endsWith("-delete"));
        }
        assertThat(segmentFile(log, 0, LogSegment.LOG_SUFFIX + FileDeletions.DELETED_SUFFIX)).exists();

        start();
        assertGone(log, 0);
        try (Stream<Path> files = Files.list(logDir)) {
            assertThat(files.map(path -> path.getFileName().toString())).noneMatch(name -> name.endsWith("-delete"));
        }
        assertThat(readAll(manager.log(TP).orElseThrow())).isEqualTo(left);
    }
}
