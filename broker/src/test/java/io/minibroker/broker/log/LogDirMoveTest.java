package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.readAll;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log's move to another of {@code log.dirs} (AlterReplicaLogDirs; {@link FutureLog}): every record appended
 * before, during and after it is there afterwards, in order, while appends and reads went on; the files end in the
 * new directory and the old one is gone; a stop during the move loses nothing and the move goes on after it.
 */
@Timeout(120)
class LogDirMoveTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final LogConfig CONFIG = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200);

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;
    private final MutableClock clock = new MutableClock(T0);

    /** Deletes what it renames for deletion at once (no scheduler): the old directory goes as the move ends. */
    private LogManager manager() {
        return new LogManager(List.of(dirA, dirB), topic -> CONFIG, clock, 2, Long.MAX_VALUE, () -> 0L);
    }

    @Test
    void everyRecordAppendedBeforeDuringAndAfterAMoveIsReadInOrderWhileReadsGoOn() throws Exception {
        LogManager manager = started();
        PartitionLog log = manager.getOrCreateLog(TP);
        assertThat(log.dir().getParent()).isEqualTo(dirA);
        List<String> appended = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 300; i++) {
            appendOne(log, appended);
        }
        assertThat(log.segmentCount()).as("closed segments to copy before the lock").isGreaterThan(10);

        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread writer = new Thread(() -> {
            try {
                while (!stop.get()) {
                    appendOne(log, appended);
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        Thread reader = new Thread(() -> {
            try {
                while (!stop.get()) {
                    List<String> read = values(log); // record n is r<n>-0: none missing, none out of order
                    for (int n = 0; n < read.size(); n++) {
                        assertThat(read.get(n)).isEqualTo("r" + n + "-0");
                    }
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        writer.start();
        reader.start();
        await(() -> appended.size() > 350, "appends going on");
        assertThat(manager.alterLogDir(TP, dirB)).isTrue();
        await(() -> manager.futureLogs().isEmpty(), "the move's end");
        int atTheSwap = appended.size();
        await(() -> appended.size() > atTheSwap + 50, "appends after the move");
        stop.set(true);
        writer.join();
        reader.join();
        assertThat(failures).isEmpty();

        assertThat(log.dir()).isEqualTo(dirB.resolve("orders-0"));
        assertThat(values(log)).isEqualTo(appended);
        assertThat(names(dirB)).contains("orders-0").noneMatch(name -> name.endsWith("-future"));
        assertThat(names(dirA)).as("the old directory, deleted after log.segment.delete.delay.ms (0 here)")
                .noneMatch(name -> name.startsWith("orders-0"));
        assertThat(names(dirB.resolve("orders-0"))).contains("00000000000000000000.log",
                "00000000000000000000.index", "00000000000000000000.timeindex", "leader-epoch-checkpoint");

        manager.close();
        LogManager reopened = started();
        assertThat(reopened.log(TP).orElseThrow().dir()).isEqualTo(dirB.resolve("orders-0"));
        assertThat(values(reopened.log(TP).orElseThrow())).isEqualTo(appended);
        reopened.close();
    }

    @Test
    void aStopBeforeTheSwapKeepsTheLogWhereItWasAndTheMoveStartsAgain() throws Exception {
        List<String> appended = fillAndClose();
        // What a stop in the middle of the copy leaves: part of a segment in the future directory.
        Files.write(futureDir().resolve("00000000000000000000.log"), new byte[100]);

        LogManager reopened = started();
        PartitionLog log = reopened.log(TP).orElseThrow();
        await(() -> reopened.futureLogs().isEmpty() && log.dir().getParent().equals(dirB), "the move taken up again");
        assertThat(values(log)).isEqualTo(appended);
        assertThat(names(dirB)).contains("orders-0").noneMatch(name -> name.endsWith("-future"));
        assertThat(names(dirA)).noneMatch(name -> name.startsWith("orders-0"));
        reopened.close();
    }

    @Test
    void aCrashBetweenTheTwoRenamesOfTheSwapTakesTheFutureDirectoryAsTheLog() throws Exception {
        List<String> appended = fillAndClose();
        // The future copy whole and the old directory renamed for deletion, the future one not yet renamed; no
        // clean-shutdown marker.
        Path future = futureDir();
        try (Stream<Path> files = Files.list(dirA.resolve("orders-0"))) {
            for (Path file : files.toList()) {
                Files.copy(file, future.resolve(file.getFileName()));
            }
        }
        Files.move(dirA.resolve("orders-0"), dirA.resolve("orders-0.fedcba9876543210fedcba9876543210-delete"));
        Files.delete(dirA.resolve(LogManager.CLEAN_SHUTDOWN_FILE));
        Files.delete(dirB.resolve(LogManager.CLEAN_SHUTDOWN_FILE));

        LogManager reopened = started();
        PartitionLog log = reopened.log(TP).orElseThrow();
        assertThat(log.dir()).isEqualTo(dirB.resolve("orders-0"));
        assertThat(values(log)).isEqualTo(appended);
        assertThat(names(dirA)).noneMatch(name -> name.startsWith("orders-0"));
        reopened.close();
    }

    @Test
    void aMoveBackToTheCurrentDirectoryCancelsTheMoveUnderWay() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        assertThat(manager.alterLogDir(TP, dirB)).isTrue();
        assertThat(manager.alterLogDir(TP, dirA)).isTrue();
        // Either the move was cancelled, or it had ended and a move back to A started: A in the end, either way.
        await(() -> manager.futureLogs().isEmpty() && log.dir().getParent().equals(dirA), "back in A");
        assertThat(values(log)).isEqualTo(appended);
        await(() -> names(dirB).stream().noneMatch(name -> name.startsWith("orders-0")), "no copy left in B");
        manager.close();
    }

    @Test
    void aThrottledCopyWaitsWhileItsThrottleIsExceededAndCountsEachChunkItCopies() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        ScriptedThrottle throttle = new ScriptedThrottle(true);
        manager.throttleMovesWith(throttle, 1);
        assertThat(manager.alterLogDir(TP, dirB)).isTrue();

        await(() -> throttle.checks.get() > 3, "the copy asking its throttle again and again");
        assertThat(throttle.recorded).as("nothing copied while the throttle is exceeded").isEmpty();
        assertThat(manager.futureLogs()).singleElement().satisfies(future -> assertThat(future.copiedBytes()).isZero());
        assertThat(bytesIn(dirB)).isZero();

        throttle.exceeded.set(false);
        await(() -> manager.futureLogs().isEmpty() && log.dir().getParent().equals(dirB), "the move's end");
        assertThat(values(log)).isEqualTo(appended);
        // Step one copied every closed segment's log and the active segment's, one chunk each (all are under 1 MB),
        // counting their bytes, Kafka's record bytes; the indexes were copied uncounted, as Kafka's future replica
        // writes its own; nothing was appended since, so step two had no log bytes to count.
        List<Long> expected = new ArrayList<>();
        for (LogSegment segment : log.closedSegments()) {
            expected.add((long) segment.size());
        }
        expected.add((long) log.activeSegment().size());
        assertThat(throttle.recorded).containsExactlyElementsOf(expected);
        manager.close();
    }

    /**
     * As Kafka's future replica fetches throttled until it has caught up, what is appended after step one is copied
     * off the lock, held while the throttle is exceeded, before step two; step two's bytes are counted too: every
     * byte of the log is counted once.
     */
    @Test
    void whatIsAppendedAfterStepOneIsCopiedThrottledBeforeTheLockAndEveryLogByteIsCounted() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        ScriptedThrottle throttle = new ScriptedThrottle(false);
        FutureLog future = new FutureLog(log, dirB, () -> throttle, () -> 1);
        future.copyClosedSegments();
        future.copyActiveSegmentHead();
        LogSegment activeAtCopy = log.activeSegment();
        for (int i = 0; i < 200; i++) {
            appendOne(log, appended);
        }
        assertThat(log.activeSegment()).as("the segment copied as the active one has rolled").isNotSameAs(activeAtCopy);
        int recordedByStepOne = throttle.recorded.size();

        throttle.exceeded.set(true);
        int checksBefore = throttle.checks.get();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread catchUp = new Thread(() -> {
            try {
                future.catchUp();
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        });
        catchUp.start();
        await(() -> throttle.checks.get() > checksBefore + 3, "the catch-up asking its throttle again and again");
        assertThat(throttle.recorded).as("nothing copied while the throttle is exceeded").hasSize(recordedByStepOne);
        throttle.exceeded.set(false);
        catchUp.join();
        assertThat(failures).isEmpty();
        assertThat(throttle.recorded).as("the appends copied by the catch-up").hasSizeGreaterThan(recordedByStepOne);

        for (int i = 0; i < 3; i++) {
            appendOne(log, appended); // after the catch-up: step two's, under the lock
        }
        long logBytes = log.closedSegments().stream().mapToLong(LogSegment::size).sum() + log.activeSegment().size();
        assertThat(log.completeMove(future, 0)).isTrue();
        assertThat(throttle.recorded.stream().mapToLong(Long::longValue).sum()).isEqualTo(logBytes);
        assertMovedAndReadBackAfterARestart(manager, log, appended);
    }

    @Test
    void aMoveCancelledOrStoppedWhileItsCopyWaitsForTheThrottleEndsAtOnce() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        ScriptedThrottle throttle = new ScriptedThrottle(true);
        manager.throttleMovesWith(throttle, 60_000); // a wait only a cancel or the close ends in time
        assertThat(manager.alterLogDir(TP, dirB)).isTrue();
        await(() -> throttle.checks.get() > 0, "the copy held by its throttle");
        assertThat(manager.alterLogDir(TP, dirA)).isTrue(); // back where it is: the move is cancelled
        await(() -> names(dirB).stream().noneMatch(name -> name.startsWith("orders-0")), "the copy deleted");
        assertThat(manager.futureLogs()).isEmpty();

        int checks = throttle.checks.get();
        assertThat(manager.alterLogDir(TP, dirB)).isTrue();
        await(() -> throttle.checks.get() > checks, "the new move's copy held by its throttle");
        manager.close(); // within the test's timeout: the close wakes the wait
        assertThat(names(dirB)).as("the copy left for the next start").anyMatch(name -> name.endsWith("-future"));

        LogManager reopened = started();
        PartitionLog moved = reopened.log(TP).orElseThrow();
        await(() -> reopened.futureLogs().isEmpty() && moved.dir().getParent().equals(dirB), "the move taken up");
        assertThat(values(moved)).isEqualTo(appended);
        reopened.close();
    }

    @Test
    void aPartitionWithoutALogYetIsCreatedInTheDirectoryAskedFor() throws Exception {
        LogManager manager = started();
        manager.getOrCreateLog(new TopicPartition("other", 0)); // in A: the next one would go to B
        assertThat(manager.alterLogDir(TP, dirA)).as("no replica here").isFalse();
        assertThat(manager.getOrCreateLog(TP).dir().getParent()).isEqualTo(dirA);
        manager.close();
    }

    @Test
    void theFutureReplicaHasTheBytesOfTheSegmentsCopiedAndEndsWhereTheLastOfThemEnds() throws Exception {
        LogManager manager = started();
        PartitionLog log = manager.getOrCreateLog(TP);
        for (int i = 0; i < 300; i++) {
            append(log, "r" + i, 1, T0 + i);
        }
        List<LogSegment> closed = log.closedSegments();
        FutureLog future = new FutureLog(log, dirB, () -> ByteThrottle.NONE, () -> 1);
        assertThat(future.copiedBytes()).isZero();
        assertThat(future.copiedEndOffset()).isEqualTo(log.logStartOffset());

        future.copyClosedSegments();
        assertThat(future.copiedBytes()).as("what DescribeLogDirs lists as the future replica's size")
                .isEqualTo(closed.stream().mapToLong(LogSegment::size).sum());
        assertThat(future.copiedEndOffset()).isEqualTo(closed.get(closed.size() - 1).nextOffset());
        future.deleteDir();
        manager.close();
    }

    @Test
    void aTruncationBetweenTheCopyAndTheSwapLeavesTheMovedLogAsTheLogIs() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        FutureLog future = new FutureLog(log, dirB, () -> ByteThrottle.NONE, () -> 1);
        future.copyClosedSegments();
        // A follower's truncation into a segment copied, then appends that refill it past its copied size.
        log.truncateTo(100);
        List<String> kept = new ArrayList<>(appended.subList(0, 100));
        for (int i = 0; i < 200; i++) {
            int n = 100 + i;
            append(log, "s" + n, 1, T0 + n);
            kept.add("s" + n + "-0");
        }

        assertThat(log.completeMove(future, 0)).isTrue();
        assertThat(log.dir()).isEqualTo(dirB.resolve("orders-0"));
        assertMovedAndReadBackAfterARestart(manager, log, kept);
    }

    @Test
    void appendsAfterStepOneAreCopiedUnderTheLockAsTheBytesAppendedSinceTheSegmentsWereCopied() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        LogSegment activeAtCopy = log.activeSegment();
        FutureLog future = new FutureLog(log, dirB, () -> ByteThrottle.NONE, () -> 1);
        future.copyClosedSegments();
        future.copyActiveSegmentHead();
        long headBytes = Files.size(future.dir().resolve(activeAtCopy.logPath().getFileName()));
        assertThat(headBytes).as("the active segment's log file as far as it was written")
                .isEqualTo(activeAtCopy.size());
        // Appends that grow the segment active at the copy, roll it, and fill the next ones.
        for (int i = 0; i < 200; i++) {
            appendOne(log, appended);
        }
        assertThat(log.activeSegment()).as("the segment copied as the active one has rolled").isNotSameAs(activeAtCopy);

        assertThat(log.completeMove(future, 0)).isTrue();
        assertMovedAndReadBackAfterARestart(manager, log, appended);
    }

    @Test
    void aTruncationDuringStepOneIsSeenAndAnotherPassCopiesTheLogAsItIsNow() throws Exception {
        LogManager manager = started();
        List<String> appended = new ArrayList<>();
        PartitionLog log = filled(manager, appended);
        FutureLog future = new FutureLog(log, dirB, () -> ByteThrottle.NONE, () -> 1);
        future.copyClosedSegments();
        future.copyActiveSegmentHead();
        assertThat(future.truncatedSinceCopy()).isFalse();
        log.truncateTo(100);
        List<String> kept = new ArrayList<>(appended.subList(0, 100));
        assertThat(future.truncatedSinceCopy()).as("the copies are void").isTrue();

        future.copyClosedSegments();
        future.copyActiveSegmentHead();
        assertThat(future.truncatedSinceCopy()).isFalse();
        assertThat(future.copiedEndOffset()).as("the second pass's copies only").isEqualTo(100);
        assertThat(log.completeMove(future, 0)).isTrue();
        assertThat(values(log)).isEqualTo(kept);
        manager.close();
    }

    private LogManager started() throws IOException {
        LogManager manager = manager();
        manager.startup();
        return manager;
    }

    /** The moved log holds {@code expected}, and so does the log read from the moved files after a restart. */
    private void assertMovedAndReadBackAfterARestart(LogManager manager, PartitionLog log, List<String> expected)
            throws IOException {
        assertThat(values(log)).isEqualTo(expected);
        manager.close();
        LogManager reopened = started();
        assertThat(values(reopened.log(TP).orElseThrow())).as("after a restart, from the moved files")
                .isEqualTo(expected);
        reopened.close();
    }

    /** The partition's log, created (in A) with 300 records, their values added to {@code appended}. */
    private static PartitionLog filled(LogManager manager, List<String> appended) throws IOException {
        PartitionLog log = manager.getOrCreateLog(TP);
        for (int i = 0; i < 300; i++) {
            appendOne(log, appended);
        }
        return log;
    }

    /** A future directory of the partition in B, as a move to B makes it. */
    private Path futureDir() throws IOException {
        return Files.createDirectories(dirB.resolve("orders-0.0123456789abcdef0123456789abcdef-future"));
    }

    private List<String> fillAndClose() throws IOException {
        LogManager manager = started();
        PartitionLog log = manager.getOrCreateLog(TP);
        List<String> appended = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            appendOne(log, appended);
        }
        manager.close();
        return appended;
    }

    private static void appendOne(PartitionLog log, List<String> appended) {
        int n = appended.size();
        append(log, "r" + n, 1, T0 + n);
        appended.add("r" + n + "-0");
    }

    private static List<String> values(PartitionLog log) {
        return readAll(log).stream().map(TestBatches.Entry::value).toList();
    }

    /** A throttle the test turns on and off; it counts the checks and keeps each chunk recorded. */
    private static final class ScriptedThrottle implements ByteThrottle {
        final AtomicBoolean exceeded;
        final AtomicInteger checks = new AtomicInteger();
        final List<Long> recorded = new CopyOnWriteArrayList<>();

        ScriptedThrottle(boolean exceeded) {
            this.exceeded = new AtomicBoolean(exceeded);
        }

        @Override
        public boolean isExceeded() {
            checks.incrementAndGet();
            return exceeded.get();
        }

        @Override
        public void record(long bytes) {
            recorded.add(bytes);
        }
    }

    /** The bytes of every file under {@code dir}. */
    private static long bytesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(path -> path.getFileName().toString()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
