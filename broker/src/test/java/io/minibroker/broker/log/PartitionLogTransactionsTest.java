package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A log's transactions: the last stable offset, the aborted transaction index of the segment holding each ABORT
 * marker, and both kept through a restart (clean or not), a truncation and retention.
 */
class PartitionLogTransactionsTest {

    private static final TopicPartition TP = new TopicPartition("payments", 0);
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private PartitionLog log;

    @AfterEach
    void closeLog() throws IOException {
        if (log != null) {
            log.close();
        }
    }

    private PartitionLog open(LogConfig config, boolean clean) throws IOException {
        log = TestLogs.open(logDir, TP, config, clock, 0, 0, clean);
        return log;
    }

    private static LogConfig small() {
        return LogConfig.defaults().withSegmentBytes(300).withIndexIntervalBytes(64);
    }

    /** A transactional batch of {@code records} records (producer epoch 0). */
    static AppendResult transactional(PartitionLog log, long producerId, int sequence, int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .producer(producerId, (short) 0, sequence).transactional(true);
        for (int i = 0; i < records; i++) {
            builder.append(T0, null, ("p" + producerId + "-" + (sequence + i)).getBytes(StandardCharsets.UTF_8),
                    List.of());
        }
        ByteBuf batch = builder.build();
        try {
            return log.appendUnflushed(batch, 0);
        } finally {
            batch.release();
        }
    }

    static AppendResult marker(PartitionLog log, long producerId, boolean commit) {
        ByteBuf batch = new EndTransactionMarker(commit ? EndTransactionMarker.COMMIT : EndTransactionMarker.ABORT, 3)
                .toBatch(TestBatches.ALLOC, producerId, (short) 0, T0);
        try {
            return log.appendMarkerUnflushed(batch, producerId, (short) 0, 3, (short) 0, 0);
        } finally {
            batch.release();
        }
    }

    @Test
    void theLastStableOffsetWaitsForTheEarliestOpenTransaction() throws IOException {
        open(LogConfig.defaults(), true);
        assertThat(log.lastStableOffset()).isZero();
        TestBatches.append(log, "plain", 2, T0); // 0..1
        assertThat(log.lastStableOffset()).isEqualTo(2);
        transactional(log, 7, 0, 2); // 2..3
        TestBatches.append(log, "plain", 1, T0); // 4
        transactional(log, 8, 0, 1); // 5
        transactional(log, 7, 2, 1); // 6: the same transaction goes on
        assertThat(log.lastStableOffset()).isEqualTo(2);
        assertThat(log.highWatermark()).isEqualTo(7);
        assertThat(log.ongoingTransactions()).containsEntry(7L, 2L).containsEntry(8L, 5L);

        assertThat(marker(log, 7, true).firstOffset()).isEqualTo(7);
        assertThat(log.lastStableOffset()).isEqualTo(5); // producer 8's transaction is still open
        assertThat(log.abortedTransactions(0, 8)).isEmpty(); // a commit is not indexed

        marker(log, 8, false); // 8
        assertThat(log.lastStableOffset()).isEqualTo(9);
        assertThat(log.abortedTransactions(0, 9)).containsExactly(new AbortedTxn(8, 5, 8, 9));
        assertThat(log.ongoingTransactions()).isEmpty();
    }

    @Test
    void anAbortWhileAnotherTransactionIsOpenRecordsThatOneAsItsLastStableOffset() throws IOException {
        open(LogConfig.defaults(), true);
        transactional(log, 1, 0, 1); // 0
        transactional(log, 2, 0, 1); // 1
        marker(log, 2, false); // 2
        assertThat(log.abortedTransactions(0, 3)).containsExactly(new AbortedTxn(2, 1, 2, 0));
        assertThat(log.lastStableOffset()).isZero();
        // A marker without any batch of the producer here is a transaction of its own offset.
        marker(log, 3, false); // 3
        assertThat(log.abortedTransactions(3, 4)).containsExactly(new AbortedTxn(3, 3, 3, 0));
    }

    @Test
    void aMarkerBelowTheHighWatermarkOnlyThenLetsTheLastStableOffsetPass() throws IOException {
        open(LogConfig.defaults(), true);
        log.setReplicatedHighWatermark(0); // replicated: the high watermark is replication's, not the log end
        transactional(log, 1, 0, 2); // 0..1
        marker(log, 1, true); // 2
        assertThat(log.lastStableOffset()).isZero();
        log.advanceReplicatedHighWatermark(2); // the data, not yet the marker
        assertThat(log.lastStableOffset()).isZero();
        log.advanceReplicatedHighWatermark(3);
        assertThat(log.lastStableOffset()).isEqualTo(3);
    }

    @Test
    void eachAbortIsIndexedInTheSegmentHoldingItsMarkerAndFoundFromEarlierSegments() throws IOException {
        open(small(), true);
        transactional(log, 5, 0, 1); // 0
        for (int i = 0; i < 6; i++) {
            TestBatches.append(log, "filler-" + i, 1, T0);
        }
        AppendResult abort = marker(log, 5, false);
        assertThat(log.segmentCount()).isGreaterThan(1);
        long markerSegment = lastBaseOffset();
        assertThat(markerSegment).isPositive();
        assertThat(logDir.resolve(TP.dirName()).resolve(LogSegment.fileName(markerSegment, ".txnindex"))).exists();
        assertThat(logDir.resolve(TP.dirName()).resolve(LogSegment.fileName(0, ".txnindex"))).doesNotExist();

        assertThat(log.abortedTransactions(0, log.logEndOffset()))
                .containsExactly(new AbortedTxn(5, 0, abort.firstOffset(), abort.firstOffset() + 1));
        assertThat(log.abortedTransactions(abort.firstOffset() + 1, log.logEndOffset())).isEmpty();
    }

    @Test
    void anOpenTransactionAndTheAbortedIndexSurviveARestart() throws IOException {
        open(small(), true);
        transactional(log, 5, 0, 1); // 0
        marker(log, 5, false); // 1
        TestBatches.append(log, "plain", 1, T0); // 2
        transactional(log, 6, 0, 2); // 3..4
        TestBatches.append(log, "plain", 1, T0); // 5
        log.close();

        open(small(), true);
        assertThat(log.lastStableOffset()).isEqualTo(3);
        assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTxn(5, 0, 1, 2));
        log.close();

        // A crash that lost the index file: recovery replays the markers and writes the entry back.
        try (Stream<Path> files = Files.list(logDir.resolve(TP.dirName()))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".txnindex")).toList()) {
                Files.delete(file);
            }
        }
        open(small(), false);
        assertThat(log.lastStableOffset()).isEqualTo(3);
        assertThat(log.abortedTransactions(0, 6)).containsExactly(new AbortedTxn(5, 0, 1, 2));
        marker(log, 6, true);
        assertThat(log.lastStableOffset()).isEqualTo(log.logEndOffset());
    }

    @Test
    void aTruncationBelowAMarkerReopensItsTransactionAndDropsItsEntry() throws IOException {
        open(LogConfig.defaults(), true);
        transactional(log, 5, 0, 2); // 0..1
        TestBatches.append(log, "plain", 1, T0); // 2
        marker(log, 5, false); // 3
        assertThat(log.lastStableOffset()).isEqualTo(4);

        log.truncateTo(3);
        assertThat(log.lastStableOffset()).isZero();
        assertThat(log.abortedTransactions(0, 3)).isEmpty();
        marker(log, 5, false); // 3 again, indexed again
        assertThat(log.abortedTransactions(0, 4)).containsExactly(new AbortedTxn(5, 0, 3, 4));
    }

    @Test
    void segmentsDeletedFromTheStartTakeTheirIndexWithThem() throws IOException {
        open(small(), true);
        transactional(log, 5, 0, 1);
        marker(log, 5, false);
        Path firstIndex = logDir.resolve(TP.dirName()).resolve(LogSegment.fileName(0, ".txnindex"));
        assertThat(firstIndex).exists();
        for (int i = 0; i < 8; i++) {
            TestBatches.append(log, "filler-" + i, 1, T0);
        }
        log.deleteRecordsBefore(log.logEndOffset() - 1);
        assertThat(firstIndex).doesNotExist();
        assertThat(log.abortedTransactions(log.logStartOffset(), log.logEndOffset())).isEmpty();
    }

    private long lastBaseOffset() {
        long last = -1;
        for (var it = log.segmentBaseOffsets(); it.hasNext(); ) {
            last = it.next();
        }
        return last;
    }
}
