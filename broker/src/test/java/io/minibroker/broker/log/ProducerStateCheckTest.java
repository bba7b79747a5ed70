package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A leader checks a produce against its log's producer state, as Kafka's ProducerStateManager: a retried batch is
 * recognised if it is any of the producer's last five (BATCH_RETENTION), whoever wrote them, this log as leader or as
 * a follower; a snapshot keeps the last batch only. Producers expire from it (idle for
 * {@code producer.id.expiration.ms} since their last batch or marker, no transaction open), also after the log is
 * opened again. An expired producer's next batch is taken at any sequence, as Kafka 4 takes an idempotent
 * producer's batch when it has no state for it.
 */
class ProducerStateCheckTest {

    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final long T0 = 1_700_000_000_000L;
    private static final long EXPIRATION_MS = 60_000;
    private static final long IDEMPOTENT = 1;
    private static final long TRANSACTIONAL = 2;
    private static final long DUPLICATED = 7;

    @TempDir
    Path logDir;
    private PartitionLog log;

    @BeforeEach
    void open() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("t", 0), LogConfig.defaults(),
                Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC), 0, 0, true);
    }

    @AfterEach
    void close() throws IOException {
        log.close();
    }

    /**
     * Kafka checks segment.bytes before the producer's state: a batch too large for a segment is RECORD_LIST_TOO_LARGE
     * even when its sequence is out of order.
     */
    @Test
    void aBatchLargerThanASegmentIsRefusedSoBeforeItsSequenceIsChecked() throws IOException {
        TopicPartition small = new TopicPartition("small", 0);
        try (PartitionLog smallSegments = TestLogs.open(logDir, small, LogConfig.defaults().withSegmentBytes(1024),
                Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC), 0, 0, true)) {
            ByteBuf first = oneRecord(IDEMPOTENT, 0, 1);
            ByteBuf outOfOrder = oneRecord(IDEMPOTENT, 5, 2048);
            try {
                appendChecked(smallSegments, first);
                assertThat(catchThrowableOfType(LogException.class, () -> appendChecked(smallSegments, outOfOrder))
                        .error()).isEqualTo(Errors.RECORD_LIST_TOO_LARGE);
            } finally {
                first.release();
                outOfOrder.release();
            }
        }
    }

    /** One record of {@code valueBytes} bytes from {@code producerId} at {@code sequence}, stamped T0. */
    private static ByteBuf oneRecord(long producerId, int sequence, int valueBytes) {
        return new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, T0).producer(producerId, (short) 0, sequence)
                .append(T0, null, new byte[valueBytes], List.of()).build();
    }

    /** Appends a producer's batch checked against its state, as a leader's produce does with verification off. */
    static AppendResult appendChecked(PartitionLog log, ByteBuf batch) {
        try (CheckedAppend checked = log.checkForAppend(batch)) {
            return log.appendIdempotentUnflushed(checked, RecordBatch.wrap(batch), 0, null);
        }
    }

    /** A produce of one record stamped {@code timestamp}, checked and appended as the produce path does. */
    private Errors produce(long producerId, int sequence, long timestamp, boolean transactional) {
        ByteBuf batch = new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, timestamp)
                .producer(producerId, (short) 0, sequence).transactional(transactional)
                .append(timestamp, null, new byte[] {1}, List.of()).build();
        try {
            appendChecked(log, batch);
            return Errors.NONE;
        } catch (LogException e) {
            return e.error();
        } finally {
            batch.release();
        }
    }

    private void commit(long producerId, long timestamp) {
        ByteBuf marker = new EndTransactionMarker(EndTransactionMarker.COMMIT, 0)
                .toBatch(ALLOC, producerId, (short) 0, timestamp);
        try {
            log.appendMarkerUnflushed(marker, producerId, (short) 0, 0, (short) 0, 0);
        } finally {
            marker.release();
        }
    }

    @Test
    void aNonTransactionalBatchOfAProducerWithATransactionOpenIsRefused() {
        assertThat(produce(TRANSACTIONAL, 0, T0, true)).isEqualTo(Errors.NONE);

        assertThat(produce(TRANSACTIONAL, 1, T0, false)).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(produce(TRANSACTIONAL, 1, T0, true)).as("the refused batch left the sequence alone")
                .isEqualTo(Errors.NONE);
        commit(TRANSACTIONAL, T0);
        assertThat(produce(TRANSACTIONAL, 2, T0, false)).as("no transaction open any more").isEqualTo(Errors.NONE);
    }

    /** Expires in the log at {@code now}, as the broker's round does. */
    private void expireAt(long now) {
        log.removeExpiredProducers(now, EXPIRATION_MS);
    }

    private List<Long> logProducers() {
        return log.producers().stream().map(ProducerSnapshot.Entry::producerId).sorted().toList();
    }

    @Test
    void anIdleProducerLeavesTheTableAtTheExpirationAndItsNextBatchIsTakenAtAnySequence() {
        assertThat(produce(IDEMPOTENT, 0, T0, false)).isEqualTo(Errors.NONE);
        assertThat(produce(IDEMPOTENT, 1, T0, false)).isEqualTo(Errors.NONE);
        assertThat(produce(TRANSACTIONAL, 0, T0, true)).isEqualTo(Errors.NONE);
        assertThat(produce(IDEMPOTENT, 5, T0, false)).as("a gap, while it is known")
                .isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);

        expireAt(T0 + EXPIRATION_MS - 1);
        assertThat(logProducers()).containsExactly(IDEMPOTENT, TRANSACTIONAL);

        expireAt(T0 + EXPIRATION_MS);
        assertThat(logProducers()).as("the open transaction keeps its producer").containsExactly(TRANSACTIONAL);
        assertThat(logProducers()).containsExactly(TRANSACTIONAL);

        assertThat(produce(IDEMPOTENT, 5, T0 + EXPIRATION_MS, false)).isEqualTo(Errors.NONE);
        assertThat(log.producers()).filteredOn(p -> p.producerId() == IDEMPOTENT)
                .extracting(ProducerSnapshot.Entry::lastSequence).containsExactly(5);
    }

    @Test
    void aCommittedProducerExpiresFromItsMarkersTimestamp() {
        produce(TRANSACTIONAL, 0, T0, true);
        long committedAt = T0 + 10 * EXPIRATION_MS;
        commit(TRANSACTIONAL, committedAt);
        assertThat(log.producers()).extracting(ProducerSnapshot.Entry::timestamp)
                .containsExactly(committedAt);

        expireAt(committedAt + EXPIRATION_MS - 1);
        assertThat(logProducers()).containsExactly(TRANSACTIONAL);
        expireAt(committedAt + EXPIRATION_MS);
        assertThat(logProducers()).isEmpty();
    }

    @Test
    void aStateRebuiltAfterTheExpiryDoesNotTakeTheProducerBackFromTheLogsBatches() throws IOException {
        produce(IDEMPOTENT, 0, T0, false);
        produce(TRANSACTIONAL, 0, T0, true);
        expireAt(T0 + EXPIRATION_MS);
        log.close(); // the snapshot it writes leaves the expired producer out
        open(); // the producer state rebuilt from it and the batches after it

        assertThat(logProducers()).containsExactly(TRANSACTIONAL);
        assertThat(produce(IDEMPOTENT, 7, T0 + EXPIRATION_MS, false)).as("a new producer's, at any sequence")
                .isEqualTo(Errors.NONE);
    }

    /** Two records of the producer from {@code sequence}, to be written from {@code baseOffset}. */
    private static ByteBuf batch(long baseOffset, int sequence) {
        return new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, baseOffset, T0)
                .producer(DUPLICATED, (short) 0, sequence).partitionLeaderEpoch(0)
                .append(T0, null, new byte[] {1}, List.of()).append(T0, null, new byte[] {2}, List.of()).build();
    }

    /** The client's batch from {@code sequence}, checked and appended as a leader's produce does: its offsets. */
    private AppendResult produceBatch(int sequence) {
        ByteBuf batch = batch(0, sequence);
        try {
            return appendChecked(log, batch);
        } finally {
            batch.release();
        }
    }

    private Errors refusal(int sequence) {
        LogException refused = catchThrowableOfType(LogException.class, () -> produceBatch(sequence));
        return refused == null ? Errors.NONE : refused.error();
    }

    @Test
    void aRetryOfAnyOfTheLastFiveBatchesIsAnsweredWithItsOffsetsAndNotWrittenAgain() {
        for (int sequence = 0; sequence < 12; sequence += 2) { // six batches, offsets 0-11
            assertThat(produceBatch(sequence).firstOffset()).isEqualTo(sequence);
        }
        long end = log.logEndOffset();

        for (int sequence = 2; sequence < 12; sequence += 2) {
            AppendResult again = produceBatch(sequence);
            assertThat(again.firstOffset()).as("batch from sequence %d", sequence).isEqualTo(sequence);
            assertThat(again.lastOffset()).isEqualTo(sequence + 1);
        }
        assertThat(log.logEndOffset()).as("nothing written twice").isEqualTo(end);
        assertThat(refusal(0)).as("the sixth batch back is no longer known").isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(refusal(14)).as("a gap").isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(produceBatch(12).firstOffset()).isEqualTo(end);
    }

    /**
     * What a follower replicated counts as the leader's own once it leads, as in Kafka, whose one producer state per
     * log both feed: a batch the old leader wrote and its producer retries to the new one is a duplicate, not
     * OUT_OF_ORDER_SEQUENCE_NUMBER.
     */
    @Test
    void batchesReplicatedAsAFollowerAreRecognisedOnceLeading() {
        for (int sequence = 0; sequence < 6; sequence += 2) {
            ByteBuf fetched = batch(sequence, sequence);
            try {
                log.appendAsFollower(fetched);
            } finally {
                fetched.release();
            }
        }

        assertThat(produceBatch(2).firstOffset()).isEqualTo(2);
        assertThat(produceBatch(0).firstOffset()).isZero();
        assertThat(log.logEndOffset()).isEqualTo(6);
        assertThat(produceBatch(6).firstOffset()).isEqualTo(6);
    }

    @Test
    void afterASnapshotOnlyTheLastBatchIsKnownAndTheBatchesAfterItAgain() throws IOException {
        produceBatch(0);
        produceBatch(2);
        log.close(); // a clean close writes a snapshot at the log end
        open();
        assertThat(produceBatch(2).firstOffset()).as("the snapshot's last batch").isEqualTo(2);
        assertThat(refusal(0)).as("older than the snapshot keeps").isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);

        produceBatch(4);
        assertThat(produceBatch(2).firstOffset()).isEqualTo(2);
        assertThat(produceBatch(4).firstOffset()).isEqualTo(4);
    }
}
