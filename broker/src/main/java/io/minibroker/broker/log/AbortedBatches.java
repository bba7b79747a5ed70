package io.minibroker.broker.log;

import io.minibroker.protocol.record.RecordBatch;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tells, batch by batch in offset order, which batches belong to an aborted transaction (the part of Kafka's
 * CleanedTransactionMetadata the cleaner needs): given the aborted transactions overlapping the range read (from the
 * {@code .txnindex} files), a producer's batches are aborted from its transaction's first offset until its ABORT
 * marker. The cleaner neither maps their keys nor keeps their records, as a read_committed consumer never sees them.
 */
final class AbortedBatches {

    private final ArrayDeque<AbortedTxn> upcoming;
    private final Set<Long> abortedProducers = new HashSet<>();

    AbortedBatches(List<AbortedTxn> aborted) {
        this.upcoming = new ArrayDeque<>(aborted.stream().sorted(Comparator.comparingLong(AbortedTxn::firstOffset))
                .toList());
    }

    /** Whether {@code batch}, the next in offset order, is an aborted transaction's; a marker ends one. */
    boolean isAborted(RecordBatch batch) {
        while (!upcoming.isEmpty() && upcoming.peekFirst().firstOffset() <= batch.lastOffset()) {
            abortedProducers.add(upcoming.pollFirst().producerId());
        }
        if (batch.isControl()) {
            abortedProducers.remove(batch.producerId()); // its transaction ends here, whichever way
            return false;
        }
        return batch.isTransactional() && abortedProducers.contains(batch.producerId());
    }
}
