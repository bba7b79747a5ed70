package io.minibroker.broker.group;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The latest epoch of each transactional producer seen on each partition of {@code __consumer_offsets} led here,
 * from its transactional batches and markers (written, or replayed): a TxnOffsetCommit with an older epoch is from
 * a fenced instance of the producer and gets INVALID_PRODUCER_EPOCH, as Kafka's log refuses such a coordinator
 * append through its producer state. Synchronized: written on the coordinator's thread, and by replays.
 */
final class ProducerEpochs {

    /** Partition of the offsets topic, then producer id, then its latest epoch there. */
    private final Map<Integer, Map<Long, Short>> byPartition = new HashMap<>();

    synchronized void observe(int offsetsPartition, long producerId, short epoch) {
        byPartition.computeIfAbsent(offsetsPartition, p -> new HashMap<>())
                .merge(producerId, epoch, (known, seen) -> (short) Math.max(known, seen));
    }

    /** Whether the partition has seen a later epoch of this producer. */
    synchronized boolean fenced(int offsetsPartition, long producerId, short epoch) {
        Short known = byPartition.getOrDefault(offsetsPartition, Map.of()).get(producerId);
        return known != null && epoch < known;
    }

    /** Forgets the partitions {@code unloaded} accepts (this broker stopped leading them). */
    synchronized void unload(IntPredicate unloaded) {
        byPartition.keySet().removeIf(unloaded::test);
    }
}
