package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cleaner on a transactional compacted log: an aborted transaction's records neither survive nor supersede a
 * committed value of their key, markers stay while records of their transaction do and go {@code delete.retention.ms}
 * after that, and an open transaction is not cleaned before its marker.
 */
class LogCleanerTransactionsTest {
    private static final TopicPartition TP = new TopicPartition("txn-changelog", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final long DELETE_RETENTION_MS = 86_400_000L;
    private static final LogConfig COMPACTED = LogConfig.defaults().withSegmentBytes(250).withIndexIntervalBytes(0)
            .withCompaction(DELETE_RETENTION_MS, 0, 0.5);

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private LogManager logs;
    private LogCleaner cleaner;
    private int fills;

    @AfterEach
    void close() throws Exception {
        if (cleaner != null) {
            cleaner.close();
        }
        if (logs != null) {
            logs.close();
        }
    }

    private PartitionLog open() throws IOException {
        logs = TestLogs.manager(List.of(logDir), topic -> COMPACTED, clock);
        logs.startup();
        cleaner = new LogCleaner(logs, clock, 60_000, 1 << 20, 86_400_000L);
        return logs.getOrCreateLog(TP);
    }

    private int round() {
        logs.allLogs().forEach(PartitionLog::flush);
        return cleaner.cleanRound();
    }

    private static void put(PartitionLog log, long producerId, int sequence, String key, String value) {
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .transactional(producerId >= 0);
        if (producerId >= 0) {
            builder.producer(producerId, (short) 0, sequence);
        }
        ByteBuf batch = builder.append(T0, key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8), List.of()).build();
        try {
            log.append(batch, 0);
        } finally {
            batch.release();
        }
    }

    private static void end(PartitionLog log, long producerId, boolean commit) {
        ByteBuf batch = new EndTransactionMarker(commit ? EndTransactionMarker.COMMIT : EndTransactionMarker.ABORT, 0)
                .toBatch(TestBatches.ALLOC, producerId, (short) 0, T0);
        try {
            log.appendMarkerUnflushed(batch, producerId, (short) 0, 0, (short) 0, 0);
        } finally {
            batch.release();
        }
    }

    /** "key=value" for each data record, "COMMIT"/"ABORT@offset" for each marker, in offset order. */
    private static List<String> contents(PartitionLog log) {
        List<String> found = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            LogReadResult read = log.read(offset, 1 << 20, true, Long.MAX_VALUE);
            ByteBuf bytes = read.readInto(TestBatches.ALLOC);
            try {
                for (RecordBatches batches = RecordBatches.of(bytes); batches.hasNext(); ) {
                    RecordBatch batch = batches.next();
                    offset = batch.lastOffset() + 1;
                    if (batch.isControl()) {
                        EndTransactionMarker marker = EndTransactionMarker.read(batch, TestBatches.ALLOC);
                        String type = marker == null ? "EMPTY" : marker.isCommit() ? "COMMIT" : "ABORT";
                        long horizon = batch.deleteHorizonMs();
                        found.add(type + "@" + batch.baseOffset()
                                + (horizon == RecordBatch.NO_TIMESTAMP ? "" : " until " + (horizon - T0)));
                        continue;
                    }
                    try (RecordIterator records = batch.records(TestBatches.ALLOC)) {
                        while (records.hasNext()) {
                            Record record = records.next();
                            found.add(record.key().toString(StandardCharsets.UTF_8) + "="
                                    + record.value().toString(StandardCharsets.UTF_8));
                        }
                    }
                }
            } finally {
                bytes.release();
            }
        }
        return found;
    }

    @Test
    void markersStayAndAnAbortedValueNeitherSurvivesNorSupersedesTheCommittedOne() throws IOException {
        PartitionLog log = open();
        commitAndAbort(log); // 0..4
        for (int i = 0; i < 12; i++) {
            put(log, -1, -1, "filler-" + (i % 3), "v" + i); // segments roll; the last ones stay active
        }
        assertThat(log.abortedTransactions(0, 5)).containsExactly(new AbortedTxn(2, 2, 4, 5));

        assertThat(round()).isPositive();

        List<String> after = contents(log);
        assertThat(after).contains("k=committed", "COMMIT@1", "ABORT@4")
                .doesNotContain("k=aborted", "j=aborted");
        assertThat(log.abortedTransactions(0, 5)).containsExactly(new AbortedTxn(2, 2, 4, 5));
        assertThat(log.lastStableOffset()).isEqualTo(log.logEndOffset());
    }

    @Test
    void anOpenTransactionIsNotCleanedBeforeItsMarker() throws IOException {
        PartitionLog log = open();
        put(log, 3, 0, "k", "open"); // 0: stays open
        for (int i = 0; i < 12; i++) {
            put(log, -1, -1, "k", "later-" + i);
        }
        assertThat(log.lastStableOffset()).isZero();
        assertThat(round()).isZero();
        assertThat(contents(log)).contains("k=open", "k=later-0");
    }

    @Test
    void aMarkerGoesOnceItsRecordsAreGoneAndItsDeleteHorizonPassed() throws Exception {
        PartitionLog log = open();
        commitAndAbort(log); // 0..4
        put(log, -1, -1, "k", "plain"); // 5: supersedes the committed k
        fill(log, 12);

        // Round 1 drops the aborted records and the superseded committed one; both markers saw records, so stay.
        assertThat(round()).isPositive();
        assertThat(contents(log)).contains("COMMIT@1", "ABORT@4", "k=plain")
                .doesNotContain("k=committed", "k=aborted", "j=aborted");
        assertThat(log.abortedTransactions(0, 5)).containsExactly(new AbortedTxn(2, 2, 4, 5));

        // Round 2 finds no record before either marker: each is stamped now + delete.retention.ms, and the aborted
        // transaction leaves the index (a read_committed reader has nothing of it to skip).
        clock.advance(1_000);
        fill(log, 24);
        assertThat(round()).isPositive();
        assertThat(contents(log)).contains("COMMIT@1 until " + (1_000 + DELETE_RETENTION_MS),
                "ABORT@4 until " + (1_000 + DELETE_RETENTION_MS));
        assertThat(log.abortedTransactions(0, 5)).isEmpty();

        // Before the horizon they stay.
        clock.advance(DELETE_RETENTION_MS - 1);
        fill(log, 48);
        round();
        assertThat(contents(log)).contains("COMMIT@1 until " + (1_000 + DELETE_RETENTION_MS));

        // Past it they go: no marker is left (at most an empty batch where a segment must end).
        clock.advance(1);
        fill(log, 96);
        assertThat(round()).isPositive();
        assertThat(contents(log)).noneMatch(entry -> entry.startsWith("COMMIT@") || entry.startsWith("ABORT@"))
                .contains("k=plain");
        assertThat(log.lastStableOffset()).isEqualTo(log.logEndOffset());

        // A restart replays the cleaned log: nothing open, and no index entry written back for the gone markers.
        logs.close();
        cleaner.close();
        PartitionLog reopened = open();
        assertThat(reopened.abortedTransactions(0, reopened.logEndOffset())).isEmpty();
        assertThat(reopened.ongoingTransactions()).isEmpty();
        assertThat(reopened.lastStableOffset()).isEqualTo(reopened.logEndOffset());
    }

    @Test
    void anAbortedTransactionWhoseMarkerStaysKeepsItsIndexEntryAndALaterCommitIsRead() throws IOException {
        PartitionLog log = open();
        put(log, 2, 0, "k", "aborted"); // 0
        end(log, 2, false); // 1
        put(log, 2, 1, "k", "committed"); // 2: the same producer's next transaction
        end(log, 2, true); // 3
        fill(log, 12);
        round();
        assertThat(contents(log)).contains("ABORT@1", "k=committed", "COMMIT@3").doesNotContain("k=aborted");
        clock.advance(1_000);
        fill(log, 24);
        round();
        clock.advance(DELETE_RETENTION_MS);
        fill(log, 48);
        round();
        // The abort's marker and entry are gone; the commit still guards its record, so it and the record stay.
        assertThat(contents(log)).doesNotContain("ABORT@1").contains("k=committed", "COMMIT@3");
        assertThat(log.abortedTransactions(0, log.logEndOffset())).isEmpty();
    }

    @Test
    void aStopMidSwapKeepsTheTransactionIndexAlreadySwappedIn() throws Exception {
        PartitionLog log = open();
        List<AbortedTxn> aborted = abortAcrossSegments(log);
        assertThat(aborted).hasSize(1);
        cleaner.close();
        logs.close();
        Path dir = logDir.resolve(TP.dirName());
        long baseOffset = txnIndexBaseOffset(dir);
        // The stop came after the copy's .txnindex.swap replaced the segment's, before its .log.swap did.
        Files.copy(LogSegment.files(dir, baseOffset, "")[0], LogSegment.files(dir, baseOffset, LogCleaner.SWAP_SUFFIX)[0]);

        PartitionLog reopened = open();

        assertThat(reopened.abortedTransactions(0, reopened.logEndOffset())).isEqualTo(aborted);
    }

    @Test
    void aSwapThatFailsPartWayKeepsTheSegmentsAbortedTransactionsForTheNextStart() throws Exception {
        PartitionLog log = open();
        List<AbortedTxn> aborted = abortAcrossSegments(log);
        Path dir = logDir.resolve(TP.dirName());
        long baseOffset = txnIndexBaseOffset(dir);
        // The swap renames the .txnindex first, then fails on the .timeindex: a directory is in its place.
        Path timeIndex = LogSegment.files(dir, baseOffset, "")[2];
        Files.delete(timeIndex);
        Files.createDirectory(timeIndex);

        round();
        assertThat(log.abortedTransactions(0, log.logEndOffset())).as("served by the old segment").isEqualTo(aborted);
        cleaner.close();
        logs.close();

        PartitionLog reopened = open();
        assertThat(reopened.abortedTransactions(0, reopened.logEndOffset())).isEqualTo(aborted);
    }

    /** {@link #commitAndAbort}, then segments after it; the aborted transactions the log indexes then. */
    private List<AbortedTxn> abortAcrossSegments(PartitionLog log) {
        commitAndAbort(log);
        fill(log, 12);
        return log.abortedTransactions(0, log.logEndOffset());
    }

    private static long txnIndexBaseOffset(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            Path txnIndex = files.filter(file -> file.getFileName().toString().endsWith(TransactionIndex.SUFFIX))
                    .findFirst().orElseThrow();
            return Long.parseLong(txnIndex.getFileName().toString().substring(0, 20));
        }
    }

    /** At 0 producer 1's k=committed, at 1 its COMMIT; at 2-3 producer 2's k=aborted and j=aborted, at 4 its ABORT. */
    private static void commitAndAbort(PartitionLog log) {
        put(log, 1, 0, "k", "committed");
        end(log, 1, true);
        put(log, 2, 0, "k", "aborted");
        put(log, 2, 1, "j", "aborted");
        end(log, 2, false);
    }

    /** {@code count} non-transactional records of distinct keys: dirty bytes enough for the next round to run. */
    private void fill(PartitionLog log, int count) {
        for (int i = 0; i < count; i++) {
            put(log, -1, -1, "fill-" + fills++, "v");
        }
    }
}
