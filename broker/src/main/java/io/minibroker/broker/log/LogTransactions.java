package io.minibroker.broker.log;

import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A log's transactions, its part that keeps them (Kafka's UnifiedLog's share of the work with the
 * ProducerStateManager): each transactional batch written opens or continues its producer's transaction in
 * {@link OngoingTransactions}, each marker ends it and, for an abort, indexes it in the {@code .txnindex} of the
 * segment the marker lands in; on opening and after a truncation the log's batches are replayed instead (there are
 * no producer snapshot files: the batch headers are read, the control batches whole), which also writes back any
 * entry a segment's index lacks (a crash between the marker and its entry, a recovered tail, a lost file).
 *
 * <p>Changes run under the log's monitor; the last stable offset and the aborted transactions are read without it.
 */
final class LogTransactions {

    private final LogSegments segments;
    private final OngoingTransactions ongoing = new OngoingTransactions();

    LogTransactions(LogSegments segments) {
        this.segments = segments;
    }

    /** Rebuilds the open transactions from every segment's transactional batches. */
    void replay() throws IOException {
        ongoing.clear();
        for (LogSegment segment : segments.all()) {
            segment.forEachTransactionalBatch(segment.size(), new LogSegment.TransactionVisitor() {
                @Override
                public void batch(long producerId, long baseOffset) {
                    ongoing.onTransactionalBatch(producerId, baseOffset);
                }

                @Override
                public void marker(long producerId, long offset, EndTransactionMarker marker) throws IOException {
                    AbortedTxn aborted = ongoing.onMarker(producerId, offset, marker.isCommit());
                    if (aborted != null && aborted.firstOffset() < offset && segment.txnIndex().endsBefore(offset)) {
                        segment.appendAbortedTxn(aborted);
                    }
                }
            });
        }
    }

    /** A transactional batch just written to {@code active}: it opens or continues a transaction, or ends one. */
    void written(RecordBatch batch, LogSegment active, long highWatermark) throws IOException {
        if (!batch.isControl()) {
            ongoing.onTransactionalBatch(batch.producerId(), batch.baseOffset());
            return;
        }
        EndTransactionMarker marker = EndTransactionMarker.read(batch, UnpooledByteBufAllocator.DEFAULT);
        if (marker == null) {
            return; // a control batch of a type the broker does not know: no transaction ends
        }
        AbortedTxn aborted = ongoing.onMarker(batch.producerId(), batch.baseOffset(), marker.isCommit());
        ongoing.onHighWatermark(highWatermark);
        if (aborted != null) {
            active.appendAbortedTxn(aborted);
        }
    }

    /** The high watermark moved: completed transactions whose marker it passed stop holding the LSO back. */
    void onHighWatermark(long highWatermark) {
        ongoing.onHighWatermark(highWatermark);
    }

    /** Forgets every transaction: the log was emptied. */
    void clear() {
        ongoing.clear();
    }

    long lastStableOffset(long highWatermark) {
        return Math.min(highWatermark, ongoing.firstUnstableOffset(highWatermark));
    }

    /** From the {@code .txnindex} of the segment holding {@code fetchOffset} on, until an entry says it may stop. */
    List<AbortedTxn> abortedTransactions(long fetchOffset, long upperBoundOffset) {
        List<AbortedTxn> found = new ArrayList<>();
        Map.Entry<Long, LogSegment> start = segments.floorEntry(fetchOffset);
        long from = start == null ? segments.firstBaseOffset() : start.getKey();
        for (LogSegment segment : segments.all()) {
            if (segment.baseOffset() >= from && segment.txnIndex().collect(fetchOffset, upperBoundOffset, found)) {
                break;
            }
        }
        return found;
    }

    Map<Long, Long> ongoing() {
        return ongoing.ongoing();
    }
}
