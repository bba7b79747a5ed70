package io.minibroker.broker.log;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.purgatory.time.ManualClock;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Producer ids expire from a log's producer state as Kafka's ProducerStateManager expires them: once their last batch
 * or marker is {@code producer.id.expiration.ms} old, unless a transaction of theirs is open; and the snapshot the
 * log writes afterwards, and so a restart, no longer has them. A log opening leaves out the producers of its snapshot
 * that have expired by then, as Kafka's loadFromSnapshot does.
 */
class ProducerExpiryTest {

    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;
    private static final long EXPIRATION_MS = 60_000;

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

    private PartitionLog open() throws IOException {
        log = TestLogs.open(logDir, TP, LogConfig.defaults(), clock, 0, 0, true);
        return log;
    }

    private void batch(long producerId, int sequence, long timestamp, boolean transactional) {
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, timestamp)
                .producer(producerId, (short) 0, sequence).transactional(transactional);
        builder.append(timestamp, null, ("p" + producerId + "-" + sequence).getBytes(StandardCharsets.UTF_8),
                List.of());
        ByteBuf batch = builder.build();
        try {
            log.appendUnflushed(batch, 0);
        } finally {
            batch.release();
        }
    }

    private void commit(long producerId, long timestamp) {
        ByteBuf marker = new EndTransactionMarker(EndTransactionMarker.COMMIT, 0)
                .toBatch(TestBatches.ALLOC, producerId, (short) 0, timestamp);
        try {
            log.appendMarkerUnflushed(marker, producerId, (short) 0, 0, (short) 0, 0);
        } finally {
            marker.release();
        }
    }

    private List<Long> producerIds() {
        return log.producers().stream().map(ProducerSnapshot.Entry::producerId).sorted().toList();
    }

    @Test
    void aProducerExpiresOnceItsLastBatchIsExpirationMsOldNotBefore() throws IOException {
        open();
        batch(1, 0, T0, false);
        batch(1, 1, T0 + 5_000, false); // the last batch counts
        batch(2, 0, T0 + 10_000, false);

        assertThat(log.removeExpiredProducers(T0 + 5_000 + EXPIRATION_MS - 1, EXPIRATION_MS)).isZero();
        assertThat(producerIds()).containsExactly(1L, 2L);

        assertThat(log.removeExpiredProducers(T0 + 5_000 + EXPIRATION_MS, EXPIRATION_MS)).isOne();
        assertThat(producerIds()).containsExactly(2L);

        // Expired, it writes again as a producer the log does not know, from where it got to.
        batch(1, 2, T0 + 100_000, false);
        assertThat(log.producers()).filteredOn(entry -> entry.producerId() == 1L)
                .extracting(ProducerSnapshot.Entry::lastSequence).containsExactly(2);
    }

    @Test
    void aProducerWithATransactionOpenIsKeptAndExpiresFromItsMarker() throws IOException {
        open();
        batch(3, 0, T0, true);

        assertThat(log.removeExpiredProducers(T0 + 10 * EXPIRATION_MS, EXPIRATION_MS)).isZero();
        assertThat(producerIds()).containsExactly(3L);

        long committedAt = T0 + 11 * EXPIRATION_MS;
        commit(3, committedAt);
        assertThat(log.removeExpiredProducers(committedAt + EXPIRATION_MS - 1, EXPIRATION_MS)).isZero();
        assertThat(log.removeExpiredProducers(committedAt + EXPIRATION_MS, EXPIRATION_MS)).isOne();
        assertThat(producerIds()).isEmpty();
    }

    @Test
    void theSnapshotWrittenAfterExpiryLeavesTheProducerOutAndARestartDoesNotBringItBack() throws IOException {
        open();
        batch(1, 0, T0, false);
        batch(2, 0, T0 + 30_000, false);
        log.close(); // a snapshot at the log end with both
        open();
        assertThat(producerIds()).containsExactly(1L, 2L);
        long end = log.logEndOffset();

        log.removeExpiredProducers(T0 + EXPIRATION_MS, EXPIRATION_MS);
        log.close(); // at the same offset as the newest snapshot, which holds producer 1 still: written again
        log = null;

        assertThat(ProducerSnapshot.read(logDir.resolve(TP.dirName()), end).entries())
                .extracting(ProducerSnapshot.Entry::producerId).containsExactly(2L);
        open();
        assertThat(producerIds()).containsExactly(2L);
    }

    @Test
    void openingLeavesOutTheSnapshotsProducersExpiredByThenUnlessATransactionOfTheirsIsOpen() throws IOException {
        ManualClock manual = new ManualClock();
        java.time.Clock wall = BrokerClock.manual(manual).wallClock();
        long t = wall.millis();
        log = PartitionLog.open(logDir, TP, LogConfig.defaults(), wall, 0, 0, true, EXPIRATION_MS,
                FileDeletions.AT_ONCE);
        batch(1, 0, t, false);
        batch(2, 0, t + 30_000, false);
        batch(3, 0, t, true); // its transaction stays open
        long end = log.logEndOffset();
        log.close(); // a snapshot at the log end with all three

        manual.advance(EXPIRATION_MS + 10_000);
        log = PartitionLog.open(logDir, TP, LogConfig.defaults(), wall, 0, 0, true, EXPIRATION_MS,
                FileDeletions.AT_ONCE);

        assertThat(producerIds()).as("1 idle for longer than the expiration, no round run").containsExactly(2L, 3L);
        log.close(); // the snapshot at the same offset holds producer 1: written again without it
        log = null;
        assertThat(ProducerSnapshot.read(logDir.resolve(TP.dirName()), end).entries())
                .extracting(ProducerSnapshot.Entry::producerId).containsExactlyInAnyOrder(2L, 3L);
    }
}
