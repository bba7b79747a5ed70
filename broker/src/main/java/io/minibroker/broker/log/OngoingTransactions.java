package io.minibroker.broker.log;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions open in one partition's log, what its last stable offset is made of (the transactional part of
 * Kafka's ProducerStateManager): each producer's ongoing transaction from the offset of its first transactional
 * batch since its last marker, and the transactions whose marker is written but not yet below the high watermark
 * (Kafka's unreplicated transactions), which still hold the last stable offset back: a failover could cut their
 * marker.
 *
 * <pre>
 * offsets  10 (pid 7, txn)  11 (pid 8, txn)  12 (pid 7, ABORT)   high watermark 13
 *   after 10: ongoing {7 -> 10}                       first unstable 10
 *   after 11: ongoing {7 -> 10, 8 -> 11}              first unstable 10
 *   after 12: ongoing {8 -> 11}; pid 7 completed 10..12; aborted entry (7, 10, 12, lastStable 11)
 * </pre>
 * Kept on every replica: the log feeds it every batch it writes, a leader's and a follower's alike, so a new leader
 * has it already, and a log replays its batches into it when it opens.
 *
 * <p>Changed under the log's monitor only. {@link #firstUnstableOffset} reads without a lock: each change publishes
 * an immutable list of the unstable ranges.
 */
final class OngoingTransactions {

    /** From a transaction's first offset to its marker's ({@code Long.MAX_VALUE} while open). */
    private record Unstable(long producerId, long firstOffset, long markerOffset) {
    }

    private final Map<Long, Long> ongoing = new HashMap<>();
    private final List<Unstable> unreplicated = new ArrayList<>();
    private volatile List<Unstable> unstable = List.of();

    /** A transactional data batch of {@code producerId} written at {@code baseOffset}. */
    void onTransactionalBatch(long producerId, long baseOffset) {
        if (ongoing.putIfAbsent(producerId, baseOffset) == null) {
            publish();
        }
    }

    /**
     * A marker of {@code producerId} written at {@code markerOffset}: its transaction ends (one with no batch here
     * starts and ends at the marker, as Kafka's). For an abort, the entry to index in the marker's segment.
     */
    AbortedTxn onMarker(long producerId, long markerOffset, boolean commit) {
        Long first = ongoing.remove(producerId);
        long firstOffset = first == null ? markerOffset : first;
        unreplicated.add(new Unstable(producerId, firstOffset, markerOffset));
        publish();
        if (commit) {
            return null;
        }
        return new AbortedTxn(producerId, firstOffset, markerOffset, lastStableOffsetAfter(producerId, markerOffset));
    }

    /** Kafka's lastStableOffset(completedTxn): the next transaction still open, else the offset after the marker. */
    private long lastStableOffsetAfter(long producerId, long markerOffset) {
        long next = markerOffset + 1;
        for (Map.Entry<Long, Long> open : ongoing.entrySet()) {
            if (open.getKey() != producerId) {
                next = Math.min(next, open.getValue());
            }
        }
        return next;
    }

    /** Forgets the completed transactions whose marker is below the high watermark: they no longer count. */
    void onHighWatermark(long highWatermark) {
        if (unreplicated.removeIf(completed -> completed.markerOffset() < highWatermark)) {
            publish();
        }
    }

    /**
     * The first offset not yet stable for a high watermark of {@code highWatermark}: the first offset of the earliest
     * transaction still open, or whose marker is not below the high watermark; {@code Long.MAX_VALUE} if none.
     */
    long firstUnstableOffset(long highWatermark) {
        long first = Long.MAX_VALUE;
        for (Unstable range : unstable) {
            if (range.markerOffset() >= highWatermark) {
                first = Math.min(first, range.firstOffset());
            }
        }
        return first;
    }

    /** Whether {@code producerId} has a transaction open; under the log's monitor. */
    boolean isOpen(long producerId) {
        // Asked for every batch a leader appends: a log with no transaction open (the common one) boxes no id.
        return !ongoing.isEmpty() && ongoing.containsKey(producerId);
    }

    /** Each producer with an open transaction and where it starts. */
    Map<Long, Long> ongoing() {
        Map<Long, Long> open = new HashMap<>();
        for (Unstable range : unstable) {
            if (range.markerOffset() == Long.MAX_VALUE) {
                open.put(range.producerId(), range.firstOffset());
            }
        }
        return open;
    }

    /** Forgets everything: before a replay of the log. */
    void clear() {
        ongoing.clear();
        unreplicated.clear();
        publish();
    }

    private void publish() {
        List<Unstable> ranges = new ArrayList<>(ongoing.size() + unreplicated.size());
        ongoing.forEach((producerId, first) -> ranges.add(new Unstable(producerId, first, Long.MAX_VALUE)));
        ranges.addAll(unreplicated);
        unstable = List.copyOf(ranges);
    }
}
