package io.minibroker.broker.log;

import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The transactions of the batches a cleaner reads, batch by batch in offset order (Kafka's
 * CleanedTransactionMetadata). Given the aborted transactions overlapping the range read (from the {@code .txnindex}
 * files), it says which data batches are an aborted transaction's (dropped, and kept out of the key map), and which
 * markers no longer guard any data, so that the cleaner may drop them once their delete horizon passes:
 *
 * <pre>
 * round 1   [pid 7 txn k=a] [pid 7 ABORT]      data aborted: dropped; the marker saw it, stays, index entry kept
 * round 2                   [pid 7 ABORT]      no data left: removable, stamped now + delete.retention.ms
 * round 3, past that        (gone)
 * </pre>
 * A COMMIT marker is removable likewise once no record of its transaction is left (compaction superseded them). A
 * marker read without a record (a cleaner emptied it before) guards nothing. The aborted transactions whose marker
 * stays with data still before it are the ones the cleaned segments' indexes keep ({@link #retainedAbortedTxns}).
 */
final class CleanedTransactions {

    /** An aborted transaction under way in the read, and whether a batch with records of it was read. */
    private static final class OngoingAbort {
        final AbortedTxn txn;
        boolean dataRead;

        OngoingAbort(AbortedTxn txn) {
            this.txn = txn;
        }
    }

    private final ArrayDeque<AbortedTxn> upcoming;
    private final Map<Long, OngoingAbort> ongoingAborted = new HashMap<>();
    private final Set<Long> ongoingCommitted = new HashSet<>();
    private final List<AbortedTxn> retained = new ArrayList<>();

    CleanedTransactions(List<AbortedTxn> aborted) {
        this.upcoming = new ArrayDeque<>(aborted.stream().sorted(Comparator.comparingLong(AbortedTxn::firstOffset))
                .toList());
    }

    /** Whether {@code batch}, a data batch and the next in offset order, is an aborted transaction's. */
    boolean onDataBatch(RecordBatch batch) {
        startAbortsUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        boolean hasData = batch.recordCount() > 0; // an emptied batch holds nothing its marker must guard
        OngoingAbort abort = ongoingAborted.get(batch.producerId());
        if (abort != null) {
            abort.dataRead |= hasData;
            return true;
        }
        if (hasData) {
            ongoingCommitted.add(batch.producerId());
        }
        return false;
    }

    /**
     * Whether the marker batch {@code batch}, the next in offset order, guards no record any more: its transaction
     * ends here, whichever way. {@code marker} is its marker, null if it has none (emptied) or of an unknown type.
     */
    boolean onControlBatch(RecordBatch batch, EndTransactionMarker marker) {
        startAbortsUpTo(batch.lastOffset());
        long producerId = batch.producerId();
        if (marker == null) {
            ongoingAborted.remove(producerId);
            ongoingCommitted.remove(producerId);
            return batch.recordCount() == 0; // Kafka keeps a control record of a type it does not know
        }
        if (marker.isCommit()) {
            return !ongoingCommitted.remove(producerId);
        }
        OngoingAbort abort = ongoingAborted.remove(producerId);
        if (abort != null && abort.dataRead) {
            retained.add(abort.txn);
            return false;
        }
        return true;
    }

    /**
     * The aborted transactions read whose marker stays because records of theirs were read before it, marker order:
     * what the cleaned segments' {@code .txnindex} files hold (an entry without data would only make a
     * read_committed consumer skip a later transaction of its producer once its marker is gone).
     */
    List<AbortedTxn> retainedAbortedTxns() {
        return retained;
    }

    private void startAbortsUpTo(long offset) {
        while (!upcoming.isEmpty() && upcoming.peekFirst().firstOffset() <= offset) {
            AbortedTxn txn = upcoming.pollFirst();
            ongoingAborted.put(txn.producerId(), new OngoingAbort(txn));
        }
    }
}
