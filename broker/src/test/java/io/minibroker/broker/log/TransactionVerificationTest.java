package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KIP-890's verification guards on a leader's log, as Kafka's UnifiedLog keeps them: a transactional batch that would
 * open its producer's transaction goes in only with the guard its verification got, while the log still holds it; a
 * marker written in between (the transaction ended while the coordinator answered) drops it, so the late batch cannot
 * open a transaction no coordinator knows of (a hanging transaction). While one is held, the producer's batches go in
 * in sequence order from the lowest one verified.
 */
class TransactionVerificationTest {

    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final long PRODUCER = 7;
    private static final long EXPIRATION_MS = 60_000;

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private PartitionLog log;

    @BeforeEach
    void open() throws IOException {
        log = TestLogs.open(logDir, TP, LogConfig.defaults(), clock, 0, 0, true);
    }

    @AfterEach
    void close() throws IOException {
        log.close();
    }

    @Test
    void anAbortMarkerWrittenAfterTheVerificationRefusesTheLateBatch() {
        VerificationGuard guard = log.startTransactionVerification(PRODUCER, (short) 0, 0, false);
        marker((short) 0, (short) 0); // the coordinator aborted the transaction it had just verified

        assertThatThrownBy(() -> append((short) 0, 0, guard))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.INVALID_TXN_STATE));
        assertThat(log.ongoingTransactions()).as("no transaction left open").isEmpty();
        assertThat(log.logEndOffset()).as("the marker only").isEqualTo(1);

        VerificationGuard again = log.startTransactionVerification(PRODUCER, (short) 0, 0, false);
        assertThat(again).as("a new verification, a new guard").isNotSameAs(guard);
        append((short) 0, 0, again);
        assertThat(log.ongoingTransactions()).containsKey(PRODUCER);
    }

    @Test
    void theVerifiedBatchOpensTheTransactionAfterWhichNoGuardIsNeeded() {
        VerificationGuard guard = log.startTransactionVerification(PRODUCER, (short) 0, 0, false);
        assertThat(log.startTransactionVerification(PRODUCER, (short) 0, 0, false))
                .as("a second verification before the append shares the guard").isSameAs(guard);
        append((short) 0, 0, guard);
        assertThat(log.startTransactionVerification(PRODUCER, (short) 0, 0, false))
                .as("the transaction is open: nothing to verify").isSameAs(VerificationGuard.SENTINEL);
        append((short) 0, 1, VerificationGuard.SENTINEL);

        marker((short) 0, (short) 0);
        assertThatThrownBy(() -> append((short) 0, 2, VerificationGuard.SENTINEL))
                .as("its transaction ended: a batch that skipped the coordinator opens no other")
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.INVALID_TXN_STATE));
    }

    @Test
    void withVerificationOffAnyTransactionalBatchGoesIn() {
        append((short) 0, 0, null);
        assertThat(log.ongoingTransactions()).containsKey(PRODUCER);
    }

    @Test
    void aTransactionVersion2MarkerAtTheVerifiedEpochEndsThePreviousTransactionNotTheVerification() {
        // The coordinator bumped the epoch to 1 as it ended the last transaction; that end's marker comes late.
        VerificationGuard guard = log.startTransactionVerification(PRODUCER, (short) 1, 0, true);
        marker((short) 1, (short) 2);
        append((short) 1, 0, guard);
        assertThat(log.ongoingTransactions()).containsKey(PRODUCER);
    }

    @Test
    void whileAVerificationIsHeldNoLaterSequenceGoesAheadOfTheLowestVerified() {
        // Sequence 0's verification met an error the producer retries; sequence 1's then got the coordinator's yes.
        log.startTransactionVerification(PRODUCER, (short) 0, 0, false);
        VerificationGuard guard = log.startTransactionVerification(PRODUCER, (short) 0, 1, false);
        assertThatThrownBy(() -> append((short) 0, 1, guard))
                .as("a new producer may start at any sequence, but not ahead of one still being verified")
                .isInstanceOfSatisfying(LogException.class,
                        e -> assertThat(e.error()).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER));
        append((short) 0, 0, guard); // sequence 0's retry
        append((short) 0, 1, VerificationGuard.SENTINEL);
        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void aVerificationOfAnEpochOlderThanTheProducersIsRefused() {
        append((short) 1, 0, null);
        assertThatThrownBy(() -> log.startTransactionVerification(PRODUCER, (short) 0, 0, false))
                .isInstanceOfSatisfying(LogException.class,
                        e -> assertThat(e.error()).isEqualTo(Errors.INVALID_PRODUCER_EPOCH));
    }

    @Test
    void aVerificationNoAppendFollowsExpiresWithTheProducerIdExpiration() {
        VerificationGuard guard = log.startTransactionVerification(PRODUCER, (short) 0, 0, false);
        log.removeExpiredProducers(T0 + EXPIRATION_MS - 1, EXPIRATION_MS);
        assertThat(log.startTransactionVerification(PRODUCER, (short) 0, 0, false)).isSameAs(guard);
        log.removeExpiredProducers(T0 + EXPIRATION_MS, EXPIRATION_MS);
        assertThatThrownBy(() -> append((short) 0, 0, guard))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.INVALID_TXN_STATE));
    }

    private void append(short epoch, int sequence, VerificationGuard guard) {
        ByteBuf batch = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .producer(PRODUCER, epoch, sequence).transactional(true)
                .append(T0, null, ("v" + sequence).getBytes(StandardCharsets.UTF_8), List.of())
                .build();
        try (CheckedAppend checked = log.checkForAppend(batch)) {
            log.appendIdempotentUnflushed(checked, RecordBatch.wrap(batch), 0, guard);
        } finally {
            batch.release();
        }
    }

    private void marker(short epoch, short transactionVersion) {
        ByteBuf batch = new EndTransactionMarker(EndTransactionMarker.ABORT, 0)
                .toBatch(TestBatches.ALLOC, PRODUCER, epoch, T0);
        try {
            log.appendMarkerUnflushed(batch, PRODUCER, epoch, 0, transactionVersion, 0);
        } finally {
            batch.release();
        }
    }
}
