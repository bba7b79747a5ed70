package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;

import io.minibroker.broker.transaction.TransactionResult;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;

/**
 * Offsets committed in transactions that have not ended yet (TxnOffsetCommit), as Kafka's OffsetMetadataManager
 * keeps them: per producer id, then per group and partition, each with the offset of its record in
 * {@code __consumer_offsets}. They are invisible to OffsetFetch; when that producer's marker lands on the group's
 * partition of the topic, a COMMIT hands them over to become the committed ones and an ABORT drops them. A tombstone
 * of a partition (OffsetDelete, DeleteGroups) drops that partition's pending offset of every open transaction of
 * the group, as Kafka's replay does, while the transaction itself stays open until its marker.
 *
 * <p>One producer's transaction may cover groups of several partitions of the topic: each partition's marker ends
 * only that partition's groups ({@code partitionFor}). Every method is synchronized: completions come from whoever
 * appended the marker, the rest from the coordinator's thread and OffsetFetch's event loops.
 */
final class PendingTransactionalOffsets {

    /** A pending offset, with what the committed store needs once it is committed. */
    record Pending(OffsetStore.CommittedOffset offset, long logOffset, long commitTimestamp) {
    }

    /**
     * A TxnOffsetCommit's batch appended to the log but not counted yet (in a cluster: until replicated). A marker
     * of its producer that lands on its partition meanwhile comes after it in the log, so it ends this write's
     * offsets too, as a replay would: they settle committed or dropped instead of pending (a coordinator's abort of a
     * timed-out transaction can overtake a write that way).
     */
    static final class Write {
        private final long producerId;
        private final String groupId;
        private final CompletableFuture<Long> written;
        /** Null while its transaction is open. */
        private TransactionResult endedWith;

        private Write(long producerId, String groupId, CompletableFuture<Long> written) {
            this.producerId = producerId;
            this.groupId = groupId;
            this.written = written;
        }

        long producerId() {
            return producerId;
        }

        String groupId() {
            return groupId;
        }

        /** Completes with the batch's first offset once the write counts, as an OffsetsTopic write. */
        CompletableFuture<Long> written() {
            return written;
        }
    }

    private final ToIntFunction<String> partitionFor;
    /** Producer id, then group, then partition. */
    private final Map<Long, Map<String, Map<TopicPartition, Pending>>> byProducer = new HashMap<>();
    /** Group, then the producers with an open transaction that committed offsets for it (Kafka's openTransactionsByGroup). */
    private final Map<String, Set<Long>> openByGroup = new HashMap<>();
    private final List<Write> inFlight = new ArrayList<>();

    PendingTransactionalOffsets(ToIntFunction<String> partitionFor) {
        this.partitionFor = partitionFor;
    }

    /** A transactional commit that counts (written, or replayed): the producer's latest for the partition wins. */
    synchronized void add(long producerId, String groupId, TopicPartition partition, Pending pending) {
        byProducer.computeIfAbsent(producerId, p -> new HashMap<>())
                .computeIfAbsent(groupId, g -> new HashMap<>()).put(partition, pending);
        openByGroup.computeIfAbsent(groupId, g -> new HashSet<>()).add(producerId);
    }

    /** A transactional write about to be appended: in flight until {@link #settled}. */
    synchronized Write appending(long producerId, String groupId, CompletableFuture<Long> written) {
        Write write = new Write(producerId, groupId, written);
        inFlight.add(write);
        return write;
    }

    /** The write counts, or failed: how a marker told meanwhile ended it, null if its transaction is still open. */
    synchronized TransactionResult settled(Write write) {
        inFlight.remove(write);
        return write.endedWith;
    }

    /**
     * Ends the producer's transaction for the groups of one partition of the offsets topic; returns, per group, the
     * offsets to commit (none on an abort). Kafka's replayEndTransactionMarker. Its writes still in flight for those
     * groups are ended too ({@link Write}).
     */
    synchronized Map<String, Map<TopicPartition, Pending>> end(int offsetsPartition, long producerId, boolean commit) {
        for (Write write : inFlight) {
            if (write.producerId == producerId && write.endedWith == null
                    && partitionFor.applyAsInt(write.groupId) == offsetsPartition) {
                write.endedWith = commit ? TransactionResult.COMMIT : TransactionResult.ABORT;
            }
        }
        Map<String, Map<TopicPartition, Pending>> groups = byProducer.get(producerId);
        Map<String, Map<TopicPartition, Pending>> ended = new HashMap<>();
        if (groups == null) {
            return ended;
        }
        for (Iterator<Map.Entry<String, Map<TopicPartition, Pending>>> it = groups.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Map<TopicPartition, Pending>> group = it.next();
            if (partitionFor.applyAsInt(group.getKey()) != offsetsPartition) {
                continue; // that group's marker is another partition's
            }
            it.remove();
            closeTransaction(group.getKey(), producerId);
            if (commit) {
                ended.put(group.getKey(), group.getValue());
            }
        }
        if (groups.isEmpty()) {
            byProducer.remove(producerId);
        }
        return ended;
    }

    private void closeTransaction(String groupId, long producerId) {
        Set<Long> open = openByGroup.get(groupId);
        if (open != null) {
            open.remove(producerId);
            if (open.isEmpty()) {
                openByGroup.remove(groupId);
            }
        }
    }

    /** Whether some open transaction has a pending offset for the group's partition (KIP-447's unstable offset). */
    synchronized boolean has(String groupId, TopicPartition partition) {
        for (long producerId : openByGroup.getOrDefault(groupId, Set.of())) {
            Map<TopicPartition, Pending> pending = byProducer.getOrDefault(producerId, Map.of()).get(groupId);
            if (pending != null && pending.containsKey(partition)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a transaction that committed offsets for the group is still open (its offsets may be gone). */
    synchronized boolean hasOpenTransactions(String groupId) {
        return openByGroup.containsKey(groupId);
    }

    /** The partitions of the group with a pending offset in some open transaction. */
    synchronized Set<TopicPartition> partitions(String groupId) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (long producerId : openByGroup.getOrDefault(groupId, Set.of())) {
            partitions.addAll(byProducer.getOrDefault(producerId, Map.of()).getOrDefault(groupId, Map.of()).keySet());
        }
        return partitions;
    }

    /** A tombstone of the group's partition: every open transaction's pending offset for it goes. */
    synchronized void remove(String groupId, TopicPartition partition) {
        for (long producerId : openByGroup.getOrDefault(groupId, Set.of())) {
            Map<TopicPartition, Pending> pending = byProducer.getOrDefault(producerId, Map.of()).get(groupId);
            if (pending != null) {
                pending.remove(partition);
            }
        }
    }

    /** The groups with an open transaction. */
    synchronized Set<String> groupIds() {
        return new HashSet<>(openByGroup.keySet());
    }

    /** Forgets the groups of the partitions {@code unloaded} accepts (this broker stopped leading them). */
    synchronized void unload(IntPredicate unloaded) {
        openByGroup.keySet().removeIf(groupId -> unloaded.test(partitionFor.applyAsInt(groupId)));
        byProducer.values().forEach(groups ->
                groups.keySet().removeIf(groupId -> unloaded.test(partitionFor.applyAsInt(groupId))));
        byProducer.values().removeIf(Map::isEmpty);
    }
}
