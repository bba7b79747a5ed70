package io.minibroker.broker.produce;

import io.minibroker.broker.log.ProducerSnapshot;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One partition's idempotent-producer state: per producer id, its epoch and its last
 * {@value #RETAINED_BATCHES} batches (Kafka keeps five, the most a client has in flight), so that a retried
 * batch is recognised and answered with its original offset instead of being written twice.
 *
 * <p>Checking a batch and recording it after the append must happen under one lock together with the append
 * itself; the caller holds this table's monitor for all three.
 *
 * <p>A producer the table does not know (new, or whose batches retention has removed and no snapshot kept) may start
 * at any sequence: nothing is known to compare with. A producer from a snapshot ({@link #seed}) is known by its last
 * batch only, as Kafka's after loading one.
 */
final class ProducerStateTable {

    static final int RETAINED_BATCHES = 5;
    /** The transaction version from which a marker carries an epoch bumped past its transaction's (KIP-890). */
    private static final short BUMPED_MARKER_EPOCH_FROM_VERSION = 2;

    /** What to do with an incoming batch: append it, refuse it, or answer with where it was written before. */
    record Verdict(Errors error, long duplicateFirstOffset, long duplicateLastOffset) {
        static final Verdict APPEND = new Verdict(Errors.NONE, -1, -1);

        static Verdict refuse(Errors error) {
            return new Verdict(error, -1, -1);
        }

        boolean isDuplicate() {
            return duplicateFirstOffset >= 0;
        }
    }

    private record BatchSequence(int firstSequence, int lastSequence, long firstOffset, long lastOffset) {
    }

    private static final class ProducerEntry {
        short epoch;
        /** The coordinator epoch of its last transaction marker, -1 before any. */
        int coordinatorEpoch = -1;
        /** The largest timestamp of its last batch, or its last marker's, as Kafka's lastTimestamp. */
        long lastTimestamp = -1;
        final ArrayDeque<BatchSequence> recent = new ArrayDeque<>(RETAINED_BATCHES);
    }

    private final Map<Long, ProducerEntry> producers = new HashMap<>();

    /** Decides on a batch of an idempotent producer ({@code producerId >= 0}). */
    Verdict check(RecordBatch batch) {
        ProducerEntry entry = producers.get(batch.producerId());
        if (entry == null) {
            return Verdict.APPEND;
        }
        short epoch = batch.producerEpoch();
        int firstSequence = batch.baseSequence();
        if (epoch < entry.epoch) {
            return Verdict.refuse(Errors.INVALID_PRODUCER_EPOCH);
        }
        if (epoch > entry.epoch) {
            return firstSequence == 0 ? Verdict.APPEND : Verdict.refuse(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        }
        int lastSequence = lastSequence(batch);
        for (BatchSequence seen : entry.recent) {
            if (seen.firstSequence() == firstSequence && seen.lastSequence() == lastSequence) {
                return new Verdict(Errors.NONE, seen.firstOffset(), seen.lastOffset());
            }
        }
        // A known producer with no batch at this epoch yet (a marker bumped it, transaction version 2) starts at 0, as
        // Kafka's checkSequence has it (last sequence -1): a later batch of a pipelined producer whose first one was
        // refused (retriably) must not go in before it, or that one could never follow.
        BatchSequence newest = entry.recent.peekLast();
        int expected = newest == null ? 0 : next(newest.lastSequence());
        if (firstSequence != expected) {
            return Verdict.refuse(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        }
        return Verdict.APPEND;
    }

    /**
     * Records a batch that the log holds from {@code firstOffset}. Passed in rather than read from the batch: the
     * leader may have stored a recompressed copy, leaving the producer's batch with the offset it was sent with.
     */
    void record(RecordBatch batch, long firstOffset) {
        if (batch.isControl()) { // read back from the log: a marker carries no sequence, only epochs
            EndTransactionMarker marker = EndTransactionMarker.read(batch, UnpooledByteBufAllocator.DEFAULT);
            if (marker != null) {
                recordMarker(batch.producerId(), batch.producerEpoch(), marker.coordinatorEpoch(),
                        batch.maxTimestamp());
            }
            return;
        }
        ProducerEntry entry = entry(batch.producerId(), batch.producerEpoch());
        if (entry.recent.size() == RETAINED_BATCHES) {
            entry.recent.pollFirst();
        }
        entry.recent.addLast(new BatchSequence(batch.baseSequence(), lastSequence(batch), firstOffset,
                firstOffset + batch.lastOffsetDelta()));
        entry.lastTimestamp = batch.maxTimestamp();
    }

    /** Starts a producer from a producer-state snapshot's entry: its epochs, and its last batch if it has one. */
    void seed(ProducerSnapshot.Entry snapshot) {
        ProducerEntry entry = entry(snapshot.producerId(), snapshot.epoch());
        entry.coordinatorEpoch = snapshot.coordinatorEpoch();
        entry.lastTimestamp = snapshot.timestamp();
        if (snapshot.lastOffset() >= 0) {
            int last = snapshot.lastSequence();
            int delta = snapshot.offsetDelta();
            int first = last >= delta ? last - delta : Integer.MAX_VALUE - (delta - last) + 1; // wrapped past the max
            entry.recent.addLast(new BatchSequence(first, last, snapshot.lastOffset() - delta, snapshot.lastOffset()));
        }
    }

    /**
     * Decides on a transaction marker for {@code producerId}, as Kafka's ProducerAppendInfo checks one from a
     * coordinator: INVALID_PRODUCER_EPOCH if the producer already wrote with a newer epoch (the marker is a fenced
     * instance's), TRANSACTION_COORDINATOR_FENCED if a marker came from a newer coordinator already. A marker of
     * transaction version 2 (KIP-1228: its coordinator bumped the epoch past its transaction's) must be above the
     * producer's epoch; at it, it is a late or duplicate marker, refused too unless the producer has no transaction
     * open here, which is a retry of a marker already written (KAFKA-19999), written again.
     *
     * @param transactionOpen whether the producer has a transaction open in this partition
     */
    Errors checkMarker(long producerId, short producerEpoch, int coordinatorEpoch, short transactionVersion,
                       boolean transactionOpen) {
        ProducerEntry entry = producers.get(producerId);
        if (entry == null) {
            return Errors.NONE;
        }
        boolean bumpedEpochs = transactionVersion >= BUMPED_MARKER_EPOCH_FROM_VERSION;
        if (producerEpoch < entry.epoch
                || (bumpedEpochs && producerEpoch == entry.epoch && transactionOpen)) {
            return Errors.INVALID_PRODUCER_EPOCH;
        }
        if (coordinatorEpoch < entry.coordinatorEpoch) {
            return Errors.TRANSACTION_COORDINATOR_FENCED;
        }
        return Errors.NONE;
    }

    /**
     * Records a marker written for {@code producerId} at {@code timestamp}: its epoch becomes the producer's (a bumped
     * one, with transactions version 2, fences the batches of the epoch before), with no sequence of its own; its
     * timestamp the producer's last, as Kafka's marker updates lastTimestamp (and as the log's state has it).
     */
    void recordMarker(long producerId, short producerEpoch, int coordinatorEpoch, long timestamp) {
        ProducerEntry entry = entry(producerId, producerEpoch);
        entry.coordinatorEpoch = coordinatorEpoch;
        entry.lastTimestamp = timestamp;
    }

    /** Forgets every producer but those in {@code producerIds} (those its log still has: the others expired). */
    void retainOnly(Set<Long> producerIds) {
        producers.keySet().retainAll(producerIds);
    }

    /** The producer's entry at {@code epoch}: a new epoch starts its sequences afresh. */
    private ProducerEntry entry(long producerId, short epoch) {
        ProducerEntry entry = producers.computeIfAbsent(producerId, id -> new ProducerEntry());
        if (epoch != entry.epoch) {
            entry.epoch = epoch;
            entry.recent.clear();
        }
        return entry;
    }

    /** Every producer the table knows, with its epoch, last sequence, last batch's timestamp and coordinator epoch. */
    List<ProducerStates.ActiveProducer> activeProducers() {
        List<ProducerStates.ActiveProducer> active = new ArrayList<>(producers.size());
        producers.forEach((producerId, entry) -> active.add(new ProducerStates.ActiveProducer(producerId,
                entry.epoch, entry.recent.isEmpty() ? -1 : entry.recent.peekLast().lastSequence(),
                entry.lastTimestamp, entry.coordinatorEpoch)));
        return active;
    }

    /** Sequences wrap from Integer.MAX_VALUE to 0, as Kafka's do. */
    private static int lastSequence(RecordBatch batch) {
        int base = batch.baseSequence();
        int delta = batch.lastOffsetDelta();
        return base > Integer.MAX_VALUE - delta ? delta - (Integer.MAX_VALUE - base) - 1 : base + delta;
    }

    private static int next(int sequence) {
        return sequence == Integer.MAX_VALUE ? 0 : sequence + 1;
    }
}
