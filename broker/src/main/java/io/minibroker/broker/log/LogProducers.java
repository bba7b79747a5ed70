package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.RecordBatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The producers a log holds batches of (the idempotent half of Kafka's ProducerStateManager): per producer id its
 * epoch, the sequences and offsets of its last {@value #RETAINED_BATCHES} batches (Kafka's BATCH_RETENTION, the most a
 * client has in flight), its last timestamp and the coordinator epoch of its last marker. Fed every producer batch the
 * log writes, a leader's and a follower's alike, and rebuilt on opening from the newest snapshot (which keeps a
 * producer's last batch only, as Kafka's) and the batches after it; so a new leader knows what it replicated.
 *
 * <p>A leader checks a client's batch against it before writing ({@link #checkBatch}, Kafka's ProducerAppendInfo for
 * a client's append): a retried batch, any of the producer's last five, is recognised and answered with the offsets it
 * got the first time instead of being written twice. A producer it does not know (new, or expired, or whose batches
 * retention removed and no snapshot kept) may start at any sequence: nothing is known to compare with. A producer
 * idle for {@code producer.id.expiration.ms} with no transaction open is dropped ({@link #removeExpired}), as Kafka's
 * ProducerStateManager drops it, so that a long-running log's producers stay bounded.
 *
 * <p>Changed and read under the log's monitor.
 */
final class LogProducers {

    static final int RETAINED_BATCHES = 5;
    /** The transaction version from which a marker carries an epoch bumped past its transaction's (KIP-890). */
    private static final short BUMPED_MARKER_EPOCH_FROM_VERSION = 2;

    /**
     * One batch of a producer's: its sequences, where the log holds it, and its max timestamp as stored (the append
     * time on a LogAppendTime topic), which a retry of it is answered with, as Kafka's BatchMetadata.
     */
    record BatchMetadata(int firstSequence, int lastSequence, long firstOffset, long lastOffset, long timestamp) {
    }

    private static final class Producer {
        short epoch;
        /** Its last batches at {@link #epoch}, oldest first. */
        final ArrayDeque<BatchMetadata> batches = new ArrayDeque<>(RETAINED_BATCHES);
        long timestamp = -1;
        int coordinatorEpoch = -1;
    }

    private final Map<Long, Producer> producers = new HashMap<>();

    /** A data batch of an idempotent or transactional producer, written from {@code baseOffset}. */
    void onDataBatch(long producerId, short epoch, int baseSequence, int lastOffsetDelta, long baseOffset,
                     long maxTimestamp) {
        Producer producer = producer(producerId, epoch);
        if (producer.batches.size() == RETAINED_BATCHES) {
            producer.batches.pollFirst();
        }
        producer.batches.addLast(new BatchMetadata(baseSequence, lastSequence(baseSequence, lastOffsetDelta),
                baseOffset, baseOffset + lastOffsetDelta, maxTimestamp));
        producer.timestamp = maxTimestamp;
    }

    /** A transaction marker of {@code producerId}: its epoch (a bumped one starts the sequences afresh). */
    void onMarker(long producerId, short epoch, int coordinatorEpoch, long timestamp) {
        Producer producer = producer(producerId, epoch);
        producer.coordinatorEpoch = coordinatorEpoch;
        producer.timestamp = timestamp;
    }

    private Producer producer(long producerId, short epoch) {
        Producer producer = producers.computeIfAbsent(producerId, id -> new Producer());
        if (producer.epoch != epoch) {
            producer.epoch = epoch;
            producer.batches.clear();
        }
        return producer;
    }

    /**
     * A leader's check of a client's batch of an idempotent producer ({@code producerId >= 0}), as Kafka's
     * ProducerAppendInfo checks one: the earlier batch it repeats (one of the producer's last five, same epoch and
     * sequences), or null to append it.
     *
     * @throws LogException INVALID_PRODUCER_EPOCH for an older epoch than the producer's, OUT_OF_ORDER_SEQUENCE_NUMBER
     *     for a sequence that does not follow the producer's last batch (0 at a new epoch)
     */
    BatchMetadata checkBatch(RecordBatch batch) {
        Producer producer = producers.get(batch.producerId());
        if (producer == null) {
            return null;
        }
        short epoch = batch.producerEpoch();
        int firstSequence = batch.baseSequence();
        checkEpoch(producer, batch.producerId(), epoch);
        int expected = 0;
        if (epoch == producer.epoch) {
            int lastSequence = lastSequence(firstSequence, batch.lastOffsetDelta());
            for (BatchMetadata seen : producer.batches) {
                if (seen.firstSequence() == firstSequence && seen.lastSequence() == lastSequence) {
                    return seen;
                }
            }
            // A known producer with no batch at this epoch yet (a marker bumped it, transaction version 2) starts
            // at 0, as Kafka's checkSequence has it (last sequence -1): a later batch of a pipelined producer whose
            // first one was refused (retriably) must not go in before it, or that one could never follow.
            BatchMetadata newest = producer.batches.peekLast();
            expected = newest == null ? 0 : next(newest.lastSequence());
        }
        if (firstSequence != expected) {
            throw refused(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, batch, "expected sequence " + expected);
        }
        return null;
    }

    /** INVALID_PRODUCER_EPOCH for an epoch older than the producer's in this log (none if it has no batch of it). */
    void checkEpoch(long producerId, short epoch) {
        Producer producer = producers.get(producerId);
        if (producer != null) {
            checkEpoch(producer, producerId, epoch);
        }
    }

    private static void checkEpoch(Producer producer, long producerId, short epoch) {
        if (epoch < producer.epoch) {
            throw new LogException(Errors.INVALID_PRODUCER_EPOCH, "epoch " + epoch + " of producer " + producerId
                    + " is older than its last seen epoch " + producer.epoch);
        }
    }

    private static LogException refused(Errors error, RecordBatch batch, String why) {
        return new LogException(error, "batch of producer " + batch.producerId() + " at epoch "
                + batch.producerEpoch() + " from sequence " + batch.baseSequence() + " refused: " + why);
    }

    /**
     * A leader's check of a transaction marker for {@code producerId}, as Kafka's ProducerAppendInfo checks one from a
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
        Producer producer = producers.get(producerId);
        if (producer == null) {
            return Errors.NONE;
        }
        boolean bumpedEpochs = transactionVersion >= BUMPED_MARKER_EPOCH_FROM_VERSION;
        if (producerEpoch < producer.epoch
                || (bumpedEpochs && producerEpoch == producer.epoch && transactionOpen)) {
            return Errors.INVALID_PRODUCER_EPOCH;
        }
        if (coordinatorEpoch < producer.coordinatorEpoch) {
            return Errors.TRANSACTION_COORDINATOR_FENCED;
        }
        return Errors.NONE;
    }

    /**
     * Drops each producer whose last batch or marker is stamped {@code expirationMs} or more before {@code now} and
     * that has no transaction in {@code ongoing} (Kafka's isProducerExpired); returns how many went.
     */
    int removeExpired(long now, long expirationMs, Map<Long, Long> ongoing) {
        int before = producers.size();
        producers.entrySet().removeIf(entry -> !ongoing.containsKey(entry.getKey())
                && idleSince(entry.getValue().timestamp, now, expirationMs));
        return before - producers.size();
    }

    /** Whether a producer whose last batch or marker is stamped {@code timestamp} has been idle long enough to expire. */
    static boolean idleSince(long timestamp, long now, long expirationMs) {
        return now - timestamp >= expirationMs;
    }

    /** The producer's epoch, -1 if the log has no batch of it. */
    int epoch(long producerId) {
        Producer producer = producers.get(producerId);
        return producer == null ? -1 : producer.epoch;
    }

    /**
     * Every producer as a snapshot entry (its last batch only), with its open transaction's first offset from
     * {@code ongoing}.
     */
    List<ProducerSnapshot.Entry> entries(Map<Long, Long> ongoing) {
        List<ProducerSnapshot.Entry> entries = new ArrayList<>(producers.size());
        producers.forEach((producerId, producer) -> {
            BatchMetadata last = producer.batches.peekLast();
            entries.add(new ProducerSnapshot.Entry(producerId, producer.epoch,
                    last == null ? -1 : last.lastSequence(), last == null ? -1 : last.lastOffset(),
                    last == null ? 0 : (int) (last.lastOffset() - last.firstOffset()), producer.timestamp,
                    producer.coordinatorEpoch, ongoing.getOrDefault(producerId, -1L)));
        });
        return entries;
    }

    /** Starts from a snapshot's producers: each known by its last batch only, as Kafka's after loading one. */
    void load(List<ProducerSnapshot.Entry> entries) {
        producers.clear();
        for (ProducerSnapshot.Entry entry : entries) {
            Producer producer = new Producer();
            producer.epoch = entry.epoch();
            if (entry.lastOffset() >= 0) {
                int last = entry.lastSequence();
                int delta = entry.offsetDelta();
                int first = last >= delta ? last - delta : Integer.MAX_VALUE - (delta - last) + 1; // wrapped
                producer.batches.addLast(new BatchMetadata(first, last, entry.lastOffset() - delta,
                        entry.lastOffset(), entry.timestamp()));
            }
            producer.timestamp = entry.timestamp();
            producer.coordinatorEpoch = entry.coordinatorEpoch();
            producers.put(entry.producerId(), producer);
        }
    }

    void clear() {
        producers.clear();
    }

    /** Sequences wrap from Integer.MAX_VALUE to 0, as Kafka's do. */
    private static int lastSequence(int baseSequence, int lastOffsetDelta) {
        return baseSequence > Integer.MAX_VALUE - lastOffsetDelta
                ? lastOffsetDelta - (Integer.MAX_VALUE - baseSequence) - 1
                : baseSequence + lastOffsetDelta;
    }

    private static int next(int sequence) {
        return sequence == Integer.MAX_VALUE ? 0 : sequence + 1;
    }
}
