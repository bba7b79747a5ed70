package io.minibroker.broker.log;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The producers a log holds batches of, as its producer-state snapshots record them (the idempotent half of Kafka's
 * ProducerStateManager, to the snapshot's depth): per producer id its epoch, its last batch's sequences, offset and
 * timestamp, and the coordinator epoch of its last marker. Fed every producer batch the log writes, a leader's and a
 * follower's alike, and rebuilt on opening from the newest snapshot and the batches after it. A leader's sequence
 * checks keep more (the last five batches, {@code produce/}'s table), starting from this. A producer idle for
 * {@code producer.id.expiration.ms} with no transaction open is dropped ({@link #removeExpired}), as Kafka's
 * ProducerStateManager drops it, so that a long-running log's producers stay bounded.
 *
 * <p>Changed and read under the log's monitor.
 */
final class LogProducers {

    private static final class Producer {
        short epoch;
        int lastSequence = -1;
        long lastOffset = -1;
        int offsetDelta;
        long timestamp = -1;
        int coordinatorEpoch = -1;
    }

    private final Map<Long, Producer> producers = new HashMap<>();

    /** A data batch of an idempotent or transactional producer, written from {@code baseOffset}. */
    void onDataBatch(long producerId, short epoch, int baseSequence, int lastOffsetDelta, long baseOffset,
                     long maxTimestamp) {
        Producer producer = producer(producerId, epoch);
        producer.lastSequence = baseSequence > Integer.MAX_VALUE - lastOffsetDelta
                ? lastOffsetDelta - (Integer.MAX_VALUE - baseSequence) - 1 // sequences wrap to 0, as Kafka's
                : baseSequence + lastOffsetDelta;
        producer.lastOffset = baseOffset + lastOffsetDelta;
        producer.offsetDelta = lastOffsetDelta;
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
            producer.lastSequence = -1;
            producer.lastOffset = -1;
            producer.offsetDelta = 0;
        }
        return producer;
    }

    /**
     * Drops each producer whose last batch or marker is stamped {@code expirationMs} or more before {@code now} and
     * that has no transaction in {@code ongoing} (Kafka's isProducerExpired); returns how many went.
     */
    int removeExpired(long now, long expirationMs, Map<Long, Long> ongoing) {
        int before = producers.size();
        producers.entrySet().removeIf(entry -> !ongoing.containsKey(entry.getKey())
                && now - entry.getValue().timestamp >= expirationMs);
        return before - producers.size();
    }

    /** The producer's epoch, -1 if the log has no batch of it. */
    int epoch(long producerId) {
        Producer producer = producers.get(producerId);
        return producer == null ? -1 : producer.epoch;
    }

    /** Every producer as a snapshot entry, with its open transaction's first offset from {@code ongoing}. */
    List<ProducerSnapshot.Entry> entries(Map<Long, Long> ongoing) {
        List<ProducerSnapshot.Entry> entries = new ArrayList<>(producers.size());
        producers.forEach((producerId, producer) -> entries.add(new ProducerSnapshot.Entry(producerId, producer.epoch,
                producer.lastSequence, producer.lastOffset, producer.offsetDelta, producer.timestamp,
                producer.coordinatorEpoch, ongoing.getOrDefault(producerId, -1L))));
        return entries;
    }

    /** Starts from a snapshot's producers. */
    void load(List<ProducerSnapshot.Entry> entries) {
        producers.clear();
        for (ProducerSnapshot.Entry entry : entries) {
            Producer producer = new Producer();
            producer.epoch = entry.epoch();
            producer.lastSequence = entry.lastSequence();
            producer.lastOffset = entry.lastOffset();
            producer.offsetDelta = entry.offsetDelta();
            producer.timestamp = entry.timestamp();
            producer.coordinatorEpoch = entry.coordinatorEpoch();
            producers.put(entry.producerId(), producer);
        }
    }

    void clear() {
        producers.clear();
    }
}
