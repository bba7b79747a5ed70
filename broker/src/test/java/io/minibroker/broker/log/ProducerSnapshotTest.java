package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Producer-state snapshots ({@code <offset>.snapshot}, Kafka's layout): written at each roll and at a clean close,
 * loaded on opening so that only the batches after the newest are replayed, and a snapshot that does not read back
 * (or a truncated log's newer one) passed over for an older one or for a replay of the whole log, with the same
 * producers, epochs, sequences, open transactions and last stable offset either way.
 */
class ProducerSnapshotTest {

    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final LogConfig SMALL = LogConfig.defaults().withSegmentBytes(400).withIndexIntervalBytes(64);

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

    private PartitionLog open(boolean clean) throws IOException {
        return open(clean, 0);
    }

    private PartitionLog open(boolean clean, long recoveryPoint) throws IOException {
        log = TestLogs.open(logDir, TP, SMALL, clock, recoveryPoint, 0, clean);
        return log;
    }

    private Path dir() {
        return logDir.resolve(TP.dirName());
    }

    /** The offsets of the snapshot files in the partition's directory, ascending. */
    private TreeSet<Long> snapshotOffsets() throws IOException {
        try (Stream<Path> files = Files.list(dir())) {
            return ProducerSnapshot.offsets(files.map(file -> file.getFileName().toString()).toList());
        }
    }

    private static void batch(PartitionLog log, long producerId, short epoch, int sequence, int records,
                              boolean transactional) {
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .producer(producerId, epoch, sequence).transactional(transactional);
        for (int i = 0; i < records; i++) {
            builder.append(T0 + sequence + i, null, ("p" + producerId + "-" + (sequence + i))
                    .getBytes(StandardCharsets.UTF_8), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            log.appendUnflushed(batch, 0);
        } finally {
            batch.release();
        }
    }

    private static void marker(PartitionLog log, long producerId, short epoch, boolean commit, int coordinatorEpoch) {
        ByteBuf batch = new EndTransactionMarker(commit ? EndTransactionMarker.COMMIT : EndTransactionMarker.ABORT,
                coordinatorEpoch).toBatch(TestBatches.ALLOC, producerId, epoch, T0 + 1_000);
        try {
            log.appendMarkerUnflushed(batch, producerId, epoch, coordinatorEpoch, (short) 0, 0);
        } finally {
            batch.release();
        }
    }

    /**
     * Many segments of: an idempotent producer (1), a transactional one committing and aborting with its epoch bumped
     * by each marker (2), and one whose transaction stays open from an early segment to the end (3).
     */
    private void writeManySegments() {
        batch(log, 3, (short) 0, 0, 1, true); // opens producer 3's transaction early on
        int seq1 = 0;
        short epoch2 = 0;
        for (int round = 0; round < 30; round++) {
            batch(log, 1, (short) 0, seq1, 3, false);
            seq1 += 3;
            batch(log, 2, epoch2, 0, 2, true);
            marker(log, 2, epoch2, round % 3 != 0, 5);
            epoch2++; // transaction version 2: each EndTxn bumps the epoch
            clock.advance(10);
        }
        batch(log, 3, (short) 0, 1, 2, true); // still open
        batch(log, 2, epoch2, 0, 1, true); // producer 2's next transaction, open at the end
        assertThat(log.segmentCount()).isGreaterThan(10);
    }

    private record State(Set<ProducerSnapshot.Entry> producers, Map<Long, Long> ongoing, long lastStableOffset,
                         List<AbortedTxn> aborted) {
    }

    private State state() {
        return new State(new HashSet<>(log.producers()), log.ongoingTransactions(), log.lastStableOffset(),
                log.abortedTransactions(0, log.logEndOffset()));
    }

    @Test
    void aCleanRestartLoadsTheCloseSnapshotAndReplaysNothing() throws IOException {
        open(true);
        writeManySegments();
        State before = state();
        long end = log.logEndOffset();
        log.close();
        assertThat(Files.exists(ProducerSnapshot.path(dir(), end))).isTrue();

        open(true);
        assertThat(log.producerStateReplayedFrom()).isEqualTo(end);
        assertThat(state()).isEqualTo(before);
        assertThat(log.ongoingTransactions()).containsOnlyKeys(2L, 3L).containsEntry(3L, 0L);
        assertThat(log.lastStableOffset()).isZero();
        assertThat(before.producers()).anySatisfy(producer -> {
            assertThat(producer.producerId()).isEqualTo(1);
            assertThat(producer.lastSequence()).isEqualTo(89);
            assertThat(producer.offsetDelta()).isEqualTo(2);
        }).anySatisfy(producer -> {
            assertThat(producer.producerId()).isEqualTo(2);
            assertThat(producer.epoch()).isEqualTo((short) 30);
            assertThat(producer.coordinatorEpoch()).isEqualTo(5);
            assertThat(producer.lastSequence()).isZero();
        });
    }

    @Test
    void anIdleLogsCloseKeepsTheSnapshotAtItsEnd() throws IOException {
        open(true);
        writeManySegments();
        long end = log.logEndOffset();
        log.close();
        Path snapshot = ProducerSnapshot.path(dir(), end);
        Object written = Files.readAttributes(snapshot, BasicFileAttributes.class).fileKey();
        assertThat(written).isNotNull();

        open(true);
        log.close();

        // Rewritten, the file would be a new one renamed over it.
        assertThat(Files.readAttributes(snapshot, BasicFileAttributes.class).fileKey()).isEqualTo(written);
        open(true);
        assertThat(log.producerStateReplayedFrom()).isEqualTo(end);
    }

    @Test
    void aRollDeletesTheSnapshotsBelowTheFirstSegmentButTheNewestOfThem() throws IOException {
        open(true);
        writeManySegments();
        List<Long> bases = baseOffsets();
        log.deleteRecordsBefore(bases.get(bases.size() - 2)); // every segment but the last two goes
        assertThat(log.segmentCount()).isEqualTo(2);
        long rolledAt = log.logEndOffset();
        while (log.segmentCount() == 2) {
            batch(log, 9, (short) 0, (int) (log.logEndOffset() - rolledAt), 3, false);
        }

        long first = baseOffsets().get(0);
        assertThat(snapshotOffsets().headSet(first)).as("below the first segment").hasSize(1);
    }

    @Test
    void afterACrashTheNewestRollSnapshotIsLoadedAndOnlyTheTailReplayed() throws IOException {
        open(true);
        writeManySegments();
        State before = state();
        long end = log.logEndOffset();
        log.close();
        Files.delete(ProducerSnapshot.path(dir(), end)); // as if the broker had died before closing
        List<Long> bases = baseOffsets();
        long recoveryPoint = bases.get(bases.size() - 2) + 1; // flushed into the last segment but one

        open(false, recoveryPoint);
        // The newest roll's snapshot at or below the recovery point: recovery checked what follows, and it is replayed.
        assertThat(log.producerStateReplayedFrom()).isEqualTo(bases.get(bases.size() - 2));
        assertThat(state()).isEqualTo(before);
        assertThat(snapshotOffsets()).contains(bases.get(bases.size() - 1)); // kept: below the log end
    }

    @Test
    void aCorruptSnapshotFallsBackToAnOlderOneOrAWholeReplay() throws IOException {
        open(true);
        writeManySegments();
        State before = state();
        log.close();
        Set<Long> snapshots = snapshotOffsets();
        assertThat(snapshots).hasSizeGreaterThan(1);

        long newest = snapshotOffsets().last();
        flipAByte(ProducerSnapshot.path(dir(), newest));
        open(true);
        assertThat(log.producerStateReplayedFrom()).isLessThan(newest).isPositive();
        assertThat(state()).isEqualTo(before);
        log.close();

        for (long offset : snapshotOffsets()) {
            flipAByte(ProducerSnapshot.path(dir(), offset));
        }
        open(true);
        assertThat(log.producerStateReplayedFrom()).isZero(); // every snapshot corrupt: the whole log
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void aTruncationDropsNewerSnapshotsAndReplaysFromAnOlderOne() throws IOException {
        open(true);
        writeManySegments();
        long cut = baseOffsets().get(log.segmentCount() / 2) + 1;
        log.truncateTo(cut);
        assertThat(snapshotOffsets().last()).isLessThanOrEqualTo(log.logEndOffset());
        State afterCut = state();
        log.close();
        for (long offset : snapshotOffsets()) {
            Files.delete(ProducerSnapshot.path(dir(), offset));
        }
        open(true); // a whole replay of the cut log: the oracle
        assertThat(state()).isEqualTo(afterCut);
    }

    @Test
    void theFileIsKafkasLayoutWithItsCrc() throws IOException {
        Files.createDirectories(dir());
        ProducerSnapshot.Entry entry = new ProducerSnapshot.Entry(7, (short) 2, 41, 100, 3, T0, 4, 90);
        new ProducerSnapshot(101, List.of(entry)).write(dir(), true);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(dir().resolve("00000000000000000101.snapshot")));
        assertThat(bytes.remaining()).isEqualTo(2 + 4 + 4 + 46);
        assertThat(bytes.getShort(0)).isEqualTo((short) 1);
        CRC32C crc = new CRC32C();
        crc.update(bytes.array(), 6, bytes.remaining() - 6);
        assertThat(Integer.toUnsignedLong(bytes.getInt(2))).isEqualTo(crc.getValue());
        assertThat(bytes.getInt(6)).isEqualTo(1);
        assertThat(bytes.getLong(10)).isEqualTo(7); // producer id
        assertThat(bytes.getShort(18)).isEqualTo((short) 2); // epoch
        assertThat(bytes.getInt(20)).isEqualTo(41); // last sequence
        assertThat(bytes.getLong(24)).isEqualTo(100); // last offset
        assertThat(bytes.getInt(32)).isEqualTo(3); // offset delta
        assertThat(bytes.getLong(36)).isEqualTo(T0); // timestamp
        assertThat(bytes.getInt(44)).isEqualTo(4); // coordinator epoch
        assertThat(bytes.getLong(48)).isEqualTo(90); // current transaction's first offset
        assertThat(ProducerSnapshot.read(dir(), 101).entries()).containsExactly(entry);
    }

    private List<Long> baseOffsets() {
        List<Long> offsets = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(offsets::add);
        return offsets;
    }

    private static void flipAByte(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 3] ^= 0x5a;
        Files.write(file, bytes);
    }
}
