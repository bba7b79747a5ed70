package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Markers against a partition's producer state, as Kafka's ProducerAppendInfo checks them: a fenced epoch's marker,
 * a stale coordinator's, and a bumped epoch (transactions version 2) fencing the batches of the epoch before, kept
 * through a rebuild of the state from the log (its snapshot and the batches after it, on reopening it).
 */
class TransactionMarkerProducerStateTest {

    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final long PID = 42;

    @TempDir
    Path logDir;
    private PartitionLog log;

    @AfterEach
    void close() throws IOException {
        if (log != null) {
            log.close();
        }
    }

    private void open() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("t", 0), LogConfig.defaults(),
                Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC), 0, 0, true);
    }

    /** As after a restart: the producer state rebuilt from the log's snapshot and the batches after it. */
    private void reopen() throws IOException {
        log.close();
        open();
    }

    private static ByteBuf transactional(short epoch, int sequence) {
        return new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, 1L).producer(PID, epoch, sequence)
                .transactional(true).append(1L, null, new byte[] {1}, List.of()).build();
    }

    /** A produce of one transactional record, checked and appended as the produce path does; its error. */
    private Errors produce(short epoch, int sequence) {
        ByteBuf batch = transactional(epoch, sequence);
        try {
            ProducerStateCheckTest.appendChecked(log, batch);
            return Errors.NONE;
        } catch (LogException e) {
            return e.error();
        } finally {
            batch.release();
        }
    }

    private Errors marker(short epoch, int coordinatorEpoch, boolean commit) {
        ByteBuf batch = new EndTransactionMarker(commit ? EndTransactionMarker.COMMIT : EndTransactionMarker.ABORT,
                coordinatorEpoch).toBatch(ALLOC, PID, epoch, 1L);
        try {
            log.appendMarkerUnflushed(batch, PID, epoch, coordinatorEpoch, (short) 0, 0);
            return Errors.NONE;
        } catch (LogException e) {
            return e.error();
        } finally {
            batch.release();
        }
    }

    @Test
    void aMarkerOfAnOlderEpochThanTheProducersIsRefused() throws IOException {
        open();
        assertThat(produce((short) 3, 0)).isEqualTo(Errors.NONE);
        long end = log.logEndOffset();
        assertThat(marker((short) 2, 0, false)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(log.logEndOffset()).isEqualTo(end); // nothing written
        assertThat(log.lastStableOffset()).isZero();
        assertThat(marker((short) 3, 0, true)).isEqualTo(Errors.NONE);
        assertThat(log.lastStableOffset()).isEqualTo(log.logEndOffset());
    }

    @Test
    void aMarkerFromAnOlderCoordinatorIsFenced() throws IOException {
        open();
        produce((short) 0, 0);
        assertThat(marker((short) 0, 5, true)).isEqualTo(Errors.NONE);
        produce((short) 0, 1);
        assertThat(marker((short) 0, 4, true)).isEqualTo(Errors.TRANSACTION_COORDINATOR_FENCED);
        assertThat(marker((short) 0, 5, true)).isEqualTo(Errors.NONE);
    }

    @Test
    void aBumpedEpochInAMarkerFencesTheOldEpochsBatchesEvenAfterARebuildFromTheLog() throws IOException {
        open();
        assertThat(produce((short) 0, 0)).isEqualTo(Errors.NONE);
        assertThat(marker((short) 1, 0, true)).isEqualTo(Errors.NONE); // transactions version 2: epoch bumped
        assertThat(produce((short) 0, 1)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);

        reopen(); // rebuilt from the log
        assertThat(produce((short) 0, 1)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(marker((short) 0, 0, false)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(produce((short) 1, 0)).isEqualTo(Errors.NONE); // the new epoch's sequences start afresh
    }

    @Test
    void withTheSameEpochSequencesGoOnAcrossAMarker() throws IOException {
        open(); // transactions version 1: the epoch stays, so do the sequences
        assertThat(produce((short) 0, 0)).isEqualTo(Errors.NONE);
        assertThat(marker((short) 0, 0, true)).isEqualTo(Errors.NONE);
        assertThat(produce((short) 0, 1)).isEqualTo(Errors.NONE);
        reopen();
        assertThat(produce((short) 0, 3)).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(produce((short) 0, 2)).isEqualTo(Errors.NONE);
    }

    /**
     * Transaction version 2: after a marker bumped the epoch, the new epoch's first batch must be sequence 0. A
     * pipelined producer whose first batch of the next transaction was refused retriably (the coordinator still
     * completing the last one) sends its next batches meanwhile; one of those let in first would leave the retried
     * first batch OUT_OF_ORDER_SEQUENCE_NUMBER for good (the producer then hangs until its transaction times out).
     */
    @Test
    void afterAMarkerBumpedTheEpochTheFirstBatchMustBeSequenceZero() throws IOException {
        open();
        assertThat(produce((short) 0, 0)).isEqualTo(Errors.NONE);
        assertThat(marker((short) 1, 0, true)).isEqualTo(Errors.NONE);
        assertThat(produce((short) 1, 1)).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(produce((short) 1, 0)).isEqualTo(Errors.NONE);
        assertThat(produce((short) 1, 1)).isEqualTo(Errors.NONE);

        assertThat(marker((short) 2, 0, true)).isEqualTo(Errors.NONE);
        reopen(); // the same from a state rebuilt from the log (its snapshot and tail)
        assertThat(produce((short) 2, 1)).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertThat(produce((short) 2, 0)).isEqualTo(Errors.NONE);
    }
}
