package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A log's producers and transactions, its part that keeps them (Kafka's ProducerStateManager with UnifiedLog's share
 * of the work): each producer batch written updates its producer in {@link LogProducers}; each transactional batch
 * opens or continues its producer's transaction in {@link OngoingTransactions}, each marker ends it and, for an abort,
 * indexes it in the {@code .txnindex} of the segment the marker lands in.
 *
 * <p>Both are saved in producer-state snapshots ({@link ProducerSnapshot}, Kafka's {@code <offset>.snapshot}) at each
 * roll and at a clean close. Opening the log, and a truncation, load the newest snapshot at or below the log end (at
 * or below the recovery point after a crash; newer ones past the log end deleted, as is one that does not read back)
 * and replay only the batches from its offset on: their
 * headers, the control batches whole. Without a snapshot the whole log is replayed. The replay also writes back any
 * aborted-index entry a replayed segment lacks (a crash between the marker and its entry, a recovered tail).
 *
 * <p>Changes run under the log's monitor; the last stable offset and the aborted transactions are read without it.
 */
final class LogTransactions {
    private static final Logger log = LoggerFactory.getLogger(LogTransactions.class);

    /** The partition directory: changed under the log's monitor when the log moves to another of log.dirs. */
    private volatile Path dir;
    private final LogSegments segments;
    /**
     * The offsets of the snapshot files in the log's directory, kept in step with what this writes and deletes, so
     * that no roll, truncation or open lists the directory again.
     */
    private final NavigableSet<Long> snapshotOffsets;
    private final OngoingTransactions ongoing = new OngoingTransactions();
    private final LogProducers producers = new LogProducers();
    private final TransactionVerifications verifications = new TransactionVerifications();
    /** The newest snapshot written or loaded. */
    private ProducerSnapshot base;
    /** Where the last replay started reading batches (tests: that a snapshot spared the rest). */
    private long replayedFrom;
    /** Producers expired since {@link #base} was written or loaded: it holds some that are gone. */
    private boolean expiredSinceBase;
    /** {@code producer.id.expiration.ms}: a snapshot's producers idle that long are left out as it is loaded. */
    private final long producerIdExpirationMs;

    /**
     * @param snapshotOffsets        the offsets of the snapshot files in {@code dir} as the log opens
     * @param producerIdExpirationMs {@code producer.id.expiration.ms}, for {@link #replay}
     */
    LogTransactions(Path dir, LogSegments segments, NavigableSet<Long> snapshotOffsets, long producerIdExpirationMs) {
        this.dir = dir;
        this.segments = segments;
        this.snapshotOffsets = new TreeSet<>(snapshotOffsets);
        this.producerIdExpirationMs = producerIdExpirationMs;
        this.base = new ProducerSnapshot(segments.firstBaseOffset(), List.of());
    }

    /**
     * Rebuilds the producers and open transactions: from the newest snapshot at or below {@code replayFrom} (a
     * recovery's recovery point, so that the segments it checked are replayed and their aborted indexes completed; else
     * the log end), then the batches after it. The snapshot's producers expired at {@code now} are left out as it is
     * loaded (Kafka's loadFromSnapshot): those the batches after it bring back wait for the next expiry round, as in
     * Kafka.
     */
    void replay(long logEnd, long replayFrom, long now) throws IOException {
        ongoing.clear();
        producers.clear();
        expiredSinceBase = false;
        Optional<ProducerSnapshot> snapshot = ProducerSnapshot.latest(dir, snapshotOffsets, logEnd,
                Math.min(logEnd, replayFrom), log);
        long from = segments.firstBaseOffset();
        if (snapshot.isPresent()) {
            base = snapshot.get();
            List<ProducerSnapshot.Entry> live = base.entries().stream()
                    .filter(entry -> !entry.expiredAt(now, producerIdExpirationMs)).toList();
            expiredSinceBase = live.size() < base.entries().size();
            producers.load(live);
            for (ProducerSnapshot.Entry entry : live) {
                if (entry.currentTxnFirstOffset() >= 0) {
                    ongoing.onTransactionalBatch(entry.producerId(), entry.currentTxnFirstOffset());
                }
            }
            from = base.offset();
        } else {
            base = new ProducerSnapshot(from, List.of());
        }
        replayedFrom = from;
        for (LogSegment segment : segments.all()) {
            if (segment.nextOffset() <= from) {
                continue;
            }
            segment.batches().forEachProducerBatch(segment.size(), from, new SegmentBatches.ProducerBatchVisitor() {
                @Override
                public void batch(BatchHeader header) {
                    producers.onDataBatch(header.producerId(), header.producerEpoch(), header.baseSequence(),
                            header.lastOffsetDelta(), header.baseOffset(), header.maxTimestamp());
                    if (header.isTransactional()) {
                        ongoing.onTransactionalBatch(header.producerId(), header.baseOffset());
                    }
                }

                @Override
                public void marker(BatchHeader header, EndTransactionMarker marker, long timestamp)
                        throws IOException {
                    long offset = header.baseOffset();
                    producers.onMarker(header.producerId(), header.producerEpoch(), marker.coordinatorEpoch(),
                            timestamp);
                    AbortedTxn aborted = ongoing.onMarker(header.producerId(), offset, marker.isCommit());
                    if (aborted != null && aborted.firstOffset() < offset && segment.txnIndex().endsBefore(offset)) {
                        segment.appendAbortedTxn(aborted);
                    }
                }
            });
        }
    }

    /**
     * A producer's batch ({@code producerId >= 0}) just written to {@code active}: it updates its producer, and a
     * transactional one opens or continues a transaction, or ends one.
     */
    void written(RecordBatch batch, LogSegment active, long highWatermark) throws IOException {
        if (batch.isTransactional()) {
            verifications.onWritten(batch.producerId(), batch.producerEpoch(), batch.isControl());
        }
        if (!batch.isControl()) {
            producers.onDataBatch(batch.producerId(), batch.producerEpoch(), batch.baseSequence(),
                    batch.lastOffsetDelta(), batch.baseOffset(), batch.maxTimestamp());
            if (batch.isTransactional()) {
                ongoing.onTransactionalBatch(batch.producerId(), batch.baseOffset());
            }
            return;
        }
        EndTransactionMarker marker = EndTransactionMarker.read(batch, UnpooledByteBufAllocator.DEFAULT);
        if (marker == null || !batch.isTransactional()) {
            return; // a control batch of a type the broker does not know: no transaction ends
        }
        producers.onMarker(batch.producerId(), batch.producerEpoch(), marker.coordinatorEpoch(), batch.maxTimestamp());
        AbortedTxn aborted = ongoing.onMarker(batch.producerId(), batch.baseOffset(), marker.isCommit());
        ongoing.onHighWatermark(highWatermark);
        if (aborted != null) {
            active.appendAbortedTxn(aborted);
        }
    }

    /** The log moved to {@code newDir} (its snapshot files with it): later snapshots go there. */
    void movedTo(Path newDir) {
        dir = newDir;
    }

    /**
     * Writes a snapshot of the producers at {@code offset} (the log end: the state of every batch below it), fsynced
     * if {@code sync}; older snapshots below the log's first segment go, the newest of them kept.
     */
    void takeSnapshot(long offset, boolean sync) throws IOException {
        ProducerSnapshot snapshot = new ProducerSnapshot(offset, List.copyOf(producers.entries(ongoing.ongoing())));
        snapshot.write(dir, sync);
        snapshotOffsets.add(offset);
        base = snapshot;
        expiredSinceBase = false;
        ProducerSnapshot.deleteBefore(dir, snapshotOffsets, segments.firstBaseOffset());
    }

    /**
     * Drops the producers idle for {@code expirationMs} at {@code now} with no transaction open (see
     * {@link LogProducers#removeExpired}); the next snapshot leaves them out. Returns how many went.
     */
    int removeExpiredProducers(long now, long expirationMs) {
        verifications.removeExpired(now, expirationMs);
        int removed = producers.removeExpired(now, expirationMs, ongoing.ongoing());
        if (removed > 0) {
            expiredSinceBase = true;
        }
        return removed;
    }

    /**
     * Whether a snapshot taken at {@code logEnd} would hold what the newest one does not: batches after it, or fewer
     * producers (some expired since), so that a close writes one and a restart does not bring expired producers back.
     */
    boolean snapshotStale(long logEnd) {
        return base.offset() != logEnd || expiredSinceBase;
    }

    /**
     * A leader's check of a client's producer batch: see {@link LogProducers#checkBatch}. And, as Kafka's
     * ProducerAppendInfo, a non-transactional batch of a producer with a transaction open here is INVALID_TXN_STATE:
     * written, it would sit inside the transaction and be committed or aborted with it. A transactional batch that
     * would open a transaction here must present the guard of the verification its leader started before asking the
     * coordinator (Kafka's batchMissingRequiredVerification), else it is INVALID_TXN_STATE too: its transaction may
     * have ended since the coordinator answered. While a verification of the producer is held, a batch above its
     * lowest sequence is OUT_OF_ORDER_SEQUENCE_NUMBER (see {@link TransactionVerifications}).
     *
     * @param guard what the append presents; null when verification is off
     *              ({@code transaction.partition.verification.enable=false}), then any transactional batch goes in
     */
    LogProducers.BatchMetadata checkBatch(RecordBatch batch, VerificationGuard guard) {
        LogProducers.BatchMetadata duplicate = producers.checkBatch(batch);
        if (duplicate != null) {
            return duplicate;
        }
        long producerId = batch.producerId();
        int lowestVerified = verifications.lowestSequence(producerId);
        if (lowestVerified >= 0 && batch.baseSequence() > lowestVerified) {
            throw new LogException(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, "batch of producer " + producerId
                    + " from sequence " + batch.baseSequence() + " is ahead of sequence " + lowestVerified
                    + ", still being verified");
        }
        if (!batch.isTransactional() && ongoing.isOpen(producerId)) {
            throw new LogException(Errors.INVALID_TXN_STATE, "expected a transactional batch from producer "
                    + producerId + ", which has a transaction open in this partition");
        }
        checkVerified(batch, guard);
        return null;
    }

    /**
     * A leader's check of a batch of a producer that a coordinator wrote (Kafka's append with origin COORDINATOR: a
     * TxnOffsetCommit's offsets on {@code __consumer_offsets}): its epoch must not be older than the producer's here
     * (INVALID_PRODUCER_EPOCH), and, as for a client's batch, one that would open the producer's transaction here must
     * present the guard of its verification (INVALID_TXN_STATE). No sequence is checked: a coordinator's batches
     * carry none, and Kafka checks only a client's.
     */
    void checkCoordinatorBatch(RecordBatch batch, VerificationGuard guard) {
        producers.checkEpoch(batch.producerId(), batch.producerEpoch());
        checkVerified(batch, guard);
    }

    /**
     * A transactional batch with no transaction of its producer open here at its epoch must present the guard the
     * log holds for the producer (Kafka's batchMissingRequiredVerification); none is needed with a null one
     * (verification off).
     */
    private void checkVerified(RecordBatch batch, VerificationGuard guard) {
        long producerId = batch.producerId();
        if (batch.isTransactional() && guard != null && !hasOngoingTransaction(producerId, batch.producerEpoch())
                && !verifications.verifies(producerId, guard)) {
            throw new LogException(Errors.INVALID_TXN_STATE, "batch of producer " + producerId + " at epoch "
                    + batch.producerEpoch() + " was not part of an ongoing transaction");
        }
    }

    /**
     * Starts (or joins) a verification of the producer before its leader asks the coordinator about its transaction
     * (Kafka's maybeStartTransactionVerification): its guard, or {@link VerificationGuard#SENTINEL} if it has a
     * transaction open here at {@code epoch} already, which needs none.
     *
     * @param supportsEpochBump the producer uses transaction version 2 (its coordinator bumps the epoch at each end)
     * @throws LogException INVALID_PRODUCER_EPOCH for an epoch older than the producer's here
     */
    VerificationGuard startVerification(long producerId, short epoch, int sequence, boolean supportsEpochBump,
                                        long now) {
        producers.checkEpoch(producerId, epoch);
        return hasOngoingTransaction(producerId, epoch) ? VerificationGuard.SENTINEL
                : verifications.start(producerId, epoch, sequence, supportsEpochBump, now);
    }

    /** A leader's check of a transaction marker: see {@link LogProducers#checkMarker}. */
    Errors checkMarker(long producerId, short producerEpoch, int coordinatorEpoch, short transactionVersion) {
        return producers.checkMarker(producerId, producerEpoch, coordinatorEpoch, transactionVersion,
                ongoing.isOpen(producerId));
    }

    boolean hasOngoingTransaction(long producerId, short epoch) {
        return ongoing.isOpen(producerId) && producers.epoch(producerId) == epoch;
    }

    /** Each producer as it stands now, as a snapshot would hold it. */
    List<ProducerSnapshot.Entry> producers() {
        return producers.entries(ongoing.ongoing());
    }

    long replayedFrom() {
        return replayedFrom;
    }

    /** The high watermark moved: completed transactions whose marker it passed stop holding the LSO back. */
    void onHighWatermark(long highWatermark) {
        ongoing.onHighWatermark(highWatermark);
    }

    /** Forgets every producer and transaction, snapshots included: the log was emptied and restarts at {@code offset}. */
    void clear(long offset) throws IOException {
        ongoing.clear();
        producers.clear();
        expiredSinceBase = false;
        for (long snapshot : snapshotOffsets) {
            Files.deleteIfExists(ProducerSnapshot.path(dir, snapshot));
        }
        snapshotOffsets.clear();
        base = new ProducerSnapshot(offset, List.of());
    }

    long lastStableOffset(long highWatermark) {
        return Math.min(highWatermark, ongoing.firstUnstableOffset(highWatermark));
    }

    /**
     * From the {@code .txnindex} of the segment holding {@code fetchOffset} on, until an entry says it may stop. On
     * every read_committed fetch: the segments before that one are not walked.
     */
    List<AbortedTxn> abortedTransactions(long fetchOffset, long upperBoundOffset) {
        List<AbortedTxn> found = new ArrayList<>();
        Map.Entry<Long, LogSegment> start = segments.floorEntry(fetchOffset);
        for (LogSegment segment : segments.from(start == null ? Long.MIN_VALUE : start.getKey())) {
            if (segment.txnIndex().collect(fetchOffset, upperBoundOffset, found)) {
                break;
            }
        }
        return found;
    }

    Map<Long, Long> ongoing() {
        return ongoing.ongoing();
    }
}
