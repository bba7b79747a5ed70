package io.minibroker.broker.produce;

import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.ProducerSnapshot;
import io.minibroker.broker.log.TopicPartition;
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

/**
 * A leader's idempotence table follows its log's producer state as producers expire from it (idle for
 * {@code producer.id.expiration.ms} since their last batch or marker, no transaction open), also when it is built
 * afterwards. An expired producer's next batch is taken at any sequence, as Kafka 4 takes an idempotent producer's
 * batch when it has no state for it.
 */
class ProducerStatesExpiryTest {

    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final long T0 = 1_700_000_000_000L;
    private static final long EXPIRATION_MS = 60_000;
    private static final long IDEMPOTENT = 1;
    private static final long TRANSACTIONAL = 2;

    @TempDir
    Path logDir;
    private PartitionLog log;
    private final ProducerStates states = new ProducerStates();

    @BeforeEach
    void open() throws IOException {
        log = PartitionLog.open(logDir, new TopicPartition("t", 0), LogConfig.defaults(),
                Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC), 0, 0, true);
    }

    @AfterEach
    void close() throws IOException {
        log.close();
    }

    /** A produce of one record stamped {@code timestamp}, checked and recorded as the produce path does. */
    private Errors produce(long producerId, int sequence, long timestamp, boolean transactional) {
        ByteBuf batch = new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, timestamp)
                .producer(producerId, (short) 0, sequence).transactional(transactional)
                .append(timestamp, null, new byte[] {1}, List.of()).build();
        try {
            ProducerStateTable table = states.table(log);
            synchronized (table) {
                ProducerStateTable.Verdict verdict = table.check(RecordBatch.wrap(batch));
                if (verdict.error() != Errors.NONE) {
                    return verdict.error();
                }
                table.record(RecordBatch.wrap(batch), log.appendUnflushed(batch, 0).firstOffset());
                return Errors.NONE;
            }
        } finally {
            batch.release();
        }
    }

    private void commit(long producerId, long timestamp) {
        ByteBuf marker = new EndTransactionMarker(EndTransactionMarker.COMMIT, 0)
                .toBatch(ALLOC, producerId, (short) 0, timestamp);
        try {
            states.appendMarker(log, producerId, (short) 0, 0, (short) 0, marker, 0);
        } finally {
            marker.release();
        }
    }

    /** Expires in the log at {@code now}, and the table follows, as the broker's round does. */
    private void expireAt(long now) {
        log.removeExpiredProducers(now, EXPIRATION_MS);
        states.retainLogsProducers(log);
    }

    private List<Long> tableProducers() {
        return states.activeProducers(log).stream().map(ProducerStates.ActiveProducer::producerId).sorted().toList();
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
        assertThat(tableProducers()).containsExactly(IDEMPOTENT, TRANSACTIONAL);

        expireAt(T0 + EXPIRATION_MS);
        assertThat(tableProducers()).as("the open transaction keeps its producer").containsExactly(TRANSACTIONAL);
        assertThat(logProducers()).containsExactly(TRANSACTIONAL);

        assertThat(produce(IDEMPOTENT, 5, T0 + EXPIRATION_MS, false)).isEqualTo(Errors.NONE);
        assertThat(states.activeProducers(log)).filteredOn(p -> p.producerId() == IDEMPOTENT)
                .extracting(ProducerStates.ActiveProducer::lastSequence).containsExactly(5);
    }

    @Test
    void aCommittedProducerExpiresFromItsMarkersTimestamp() {
        produce(TRANSACTIONAL, 0, T0, true);
        long committedAt = T0 + 10 * EXPIRATION_MS;
        commit(TRANSACTIONAL, committedAt);
        assertThat(states.activeProducers(log)).extracting(ProducerStates.ActiveProducer::lastTimestamp)
                .containsExactly(committedAt);

        expireAt(committedAt + EXPIRATION_MS - 1);
        assertThat(tableProducers()).containsExactly(TRANSACTIONAL);
        expireAt(committedAt + EXPIRATION_MS);
        assertThat(tableProducers()).isEmpty();
    }

    @Test
    void aTableBuiltAfterTheExpiryDoesNotTakeTheProducerBackFromTheLogsBatches() {
        produce(IDEMPOTENT, 0, T0, false);
        produce(TRANSACTIONAL, 0, T0, true);
        log.removeExpiredProducers(T0 + EXPIRATION_MS, EXPIRATION_MS); // the log only: the table is dropped next
        states.forget(log); // a new leader's table: read from the log, whose batches still name both producers

        assertThat(tableProducers()).containsExactly(TRANSACTIONAL);
    }
}
