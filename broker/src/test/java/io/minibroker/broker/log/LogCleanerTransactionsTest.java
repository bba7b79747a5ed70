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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cleaner on a transactional compacted log: markers stay, an aborted transaction's records neither survive nor
 * supersede a committed value of their key, and an open transaction is not cleaned before its marker.
 */
class LogCleanerTransactionsTest {
    private static final TopicPartition TP = new TopicPartition("txn-changelog", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final LogConfig COMPACTED = LogConfig.defaults().withSegmentBytes(250).withIndexIntervalBytes(0)
            .withCompaction(86_400_000L, 0, 0.5);

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private LogManager logs;
    private LogCleaner cleaner;

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
        logs = new LogManager(List.of(logDir), topic -> COMPACTED, clock);
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
            log.appendControlUnflushed(batch, 0);
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
                        found.add((marker.isCommit() ? "COMMIT@" : "ABORT@") + batch.baseOffset());
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
        put(log, 1, 0, "k", "committed"); // 0
        end(log, 1, true); // 1
        put(log, 2, 0, "k", "aborted"); // 2
        put(log, 2, 1, "j", "aborted"); // 3
        end(log, 2, false); // 4
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
}
