package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.transaction.TransactionResult;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

/**
 * Committed offsets per group: served from memory, written through to {@code __consumer_offsets} first, and
 * rebuilt from it by replaying (all of it on a single node's start; in a cluster, each partition this broker comes
 * to lead). Each commit is kept with the offset of its record, so that of two commits of one partition the later
 * record wins however their acknowledgements interleave. Reads are safe from any thread; writes come from the
 * coordinator's thread, under the group's lock, once the coordinator has decided who may commit. Commits made in
 * transactions are kept apart, pending until their producer's marker ({@link PendingTransactionalOffsets}).
 */
final class OffsetStore implements OffsetsTopic.ReplaySink {

    /**
     * A committed position, as OffsetFetch returns it, with what its record also keeps: the topic's id when the
     * commit named it (OffsetCommit v10+; null otherwise) and, for a commit that asked for a retention time of its
     * own (OffsetCommit v2-v4), when it expires ({@link #NO_EXPIRY} otherwise), as Kafka's OffsetAndMetadata.
     */
    record CommittedOffset(long offset, int leaderEpoch, String metadata, UUID topicId, long expireTimestamp) {

        static final long NO_EXPIRY = -1;

        CommittedOffset(long offset, int leaderEpoch, String metadata) {
            this(offset, leaderEpoch, metadata, null, NO_EXPIRY);
        }

        /** The same position expiring at {@code expireTimestamp}. */
        CommittedOffset expiringAt(long expireTimestamp) {
            return new CommittedOffset(offset, leaderEpoch, metadata, topicId, expireTimestamp);
        }
    }

    /** A commit, the offset of its record in {@code __consumer_offsets}, and when it was made (for its expiry). */
    private record Stored(CommittedOffset offset, long logOffset, long commitTimestamp) {
    }

    private final OffsetsTopic log;
    private final Map<String, Map<TopicPartition, Stored>> byGroup = new ConcurrentHashMap<>();
    /**
     * Per group, the partitions of commits written but not yet settled (in a cluster, waiting to be replicated),
     * with how many: deleting the group writes their tombstones too, so that a commit acknowledged after the
     * deletion does not come back when the partition is replayed.
     */
    private final Map<String, Map<TopicPartition, Integer>> pending = new ConcurrentHashMap<>();
    /**
     * Per group, how many of a partition's unsettled commits an OffsetDelete's tombstone was appended after: when
     * they settle they are dropped, as a replay drops them. Only a cluster has any (a single node settles a write
     * as it appends it).
     */
    private final Map<String, Map<TopicPartition, Integer>> overtaken = new ConcurrentHashMap<>();

    /**
     * Per group, the partitions whose commit records in the log include one with the key earlier versions of
     * minibroker wrote, not yet tombstoned: deleting such a commit tombstones that key too.
     */
    private final Map<String, Set<TopicPartition>> legacyKeyed = new ConcurrentHashMap<>();

    /** Offsets committed in transactions still open: not shown until their producer's COMMIT marker. */
    private final PendingTransactionalOffsets transactional;

    OffsetStore(OffsetsTopic log) {
        this.log = log;
        this.transactional = new PendingTransactionalOffsets(log::partitionFor);
    }

    /** Replays the whole topic (a single node's start), handing {@code groups} the groups' metadata records. */
    void loadAll(OffsetsTopic.GroupSink groups) {
        log.replayAll(this, groups);
    }

    /**
     * Replays one partition of the topic (this broker now leads it), handing {@code groups} its groups' metadata
     * records; the groups it holds are loaded after.
     */
    void loadPartition(int index, OffsetsTopic.GroupSink groups) {
        log.replayPartition(index, this, groups);
    }

    /** Forgets the commits of the groups of the partitions {@code unloaded} accepts (this broker stopped leading them). */
    void unload(IntPredicate unloaded) {
        byGroup.keySet().removeIf(groupId -> unloaded.test(log.partitionFor(groupId)));
        overtaken.keySet().removeIf(groupId -> unloaded.test(log.partitionFor(groupId)));
        legacyKeyed.keySet().removeIf(groupId -> unloaded.test(log.partitionFor(groupId)));
        transactional.unload(unloaded);
    }

    int partitionFor(String groupId) {
        return log.partitionFor(groupId);
    }

    @Override
    public void committed(String groupId, TopicPartition partition, CommittedOffset offset, long logOffset,
                          long commitTimestamp, boolean legacyKey, long producerId) {
        if (producerId != OffsetsTopic.NO_PRODUCER_ID) {
            transactional.add(producerId, groupId, partition,
                    new PendingTransactionalOffsets.Pending(offset, logOffset, commitTimestamp));
            return;
        }
        store(groupId, partition, new Stored(offset, logOffset, commitTimestamp));
        if (legacyKey) {
            legacyKeyed.computeIfAbsent(groupId, g -> ConcurrentHashMap.newKeySet()).add(partition);
        }
    }

    @Override
    public void deleted(String groupId, TopicPartition partition, long logOffset, boolean legacyKey) {
        transactional.remove(groupId, partition);
        if (legacyKey) {
            legacyKeyed.computeIfPresent(groupId, (g, partitions) -> {
                partitions.remove(partition);
                return partitions.isEmpty() ? null : partitions;
            });
        }
        Map<TopicPartition, Stored> group = byGroup.get(groupId);
        if (group != null) {
            Stored stored = group.get(partition);
            if (stored != null && stored.logOffset() < logOffset) {
                group.remove(partition);
            }
            if (group.isEmpty()) {
                byGroup.remove(groupId);
            }
        }
    }

    @Override
    public void transactionEnded(int index, long producerId, TransactionResult result) {
        completeTransaction(index, producerId, result);
    }

    /** See {@link OffsetsTopic#startTransactionVerification}. */
    VerificationGuard startTransactionVerification(String groupId, long producerId, short producerEpoch,
                                                   boolean supportsEpochBump) {
        return log.startTransactionVerification(groupId, producerId, producerEpoch, supportsEpochBump);
    }

    /**
     * A producer's marker on partition {@code index} of the topic: on COMMIT, its pending offsets for the groups of
     * that partition become the committed ones, each unless the partition's committed offset has a later record (a
     * plain commit made after the transactional one), as Kafka keeps the latest record whatever the mix; on ABORT
     * they are dropped.
     */
    void completeTransaction(int index, long producerId, TransactionResult result) {
        // Under the pending offsets' lock, which deletions take too: the marker's caller is not the coordinator's
        // thread, and offsets it ends must not be stored again after a deletion has dropped the group's.
        synchronized (transactional) {
            transactional.end(index, producerId, result == TransactionResult.COMMIT).forEach((groupId, offsets) ->
                    offsets.forEach((partition, pending) -> store(groupId, partition,
                            new Stored(pending.offset(), pending.logOffset(), pending.commitTimestamp()))));
        }
    }

    /** Whether an open transaction has committed an offset for the group's partition (OffsetFetch's unstable). */
    boolean hasPendingTransactionalOffset(String groupId, TopicPartition partition) {
        return transactional.has(groupId, partition);
    }

    private void store(String groupId, TopicPartition partition, Stored stored) {
        byGroup.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>()).merge(partition,
                stored, (old, fresh) -> old.logOffset() > fresh.logOffset() ? old : fresh);
    }

    /**
     * Writes a request's commits for a group to the offsets topic together; throws LogException if the topic
     * refuses them at once. The future completes once the write counts (exceptionally, with a LogException, if it
     * does not); the caller then settles them, under the group's lock: {@link #apply} makes them visible,
     * {@link #abandon} does not.
     */
    CompletableFuture<Long> write(String groupId, Map<TopicPartition, CommittedOffset> offsets, long commitTimestamp) {
        return unsettled(groupId, offsets.keySet(), log.writeCommits(groupId, offsets, commitTimestamp));
    }

    /**
     * Writes a request's commits made in the producer's transaction, as {@link #write}, presenting the transaction's
     * verification guard ({@link #startTransactionVerification}); the caller settles them with
     * {@link #applyTransactional} (pending until the transaction ends) or {@link #abandon}.
     */
    PendingTransactionalOffsets.Write writeTransactional(String groupId, OffsetCommit.Transaction transaction,
                                                         Map<TopicPartition, CommittedOffset> offsets,
                                                         long commitTimestamp) {
        long producerId = transaction.producerId();
        // Registered before the append: a marker of its producer that lands after the batch, even one told before
        // this method returns, must find the write in flight (a marker that lands before the batch and is told
        // after ends it too, which only the aborting coordinator of a transaction the write belongs to can cause).
        CompletableFuture<Long> written = new CompletableFuture<>();
        PendingTransactionalOffsets.Write write = transactional.appending(producerId, groupId, written);
        CompletableFuture<Long> appended;
        try {
            appended = log.writeTransactionalCommits(groupId, producerId, transaction.producerEpoch(),
                    transaction.guard(), offsets, commitTimestamp);
        } catch (RuntimeException e) {
            transactional.settled(write);
            throw e;
        }
        unsettled(groupId, offsets.keySet(), appended).whenComplete((offset, failure) -> {
            if (failure != null) {
                written.completeExceptionally(failure);
            } else {
                written.complete(offset);
            }
        });
        return write;
    }

    private CompletableFuture<Long> unsettled(String groupId, Collection<TopicPartition> partitions,
                                              CompletableFuture<Long> written) {
        Map<TopicPartition, Integer> counts = pending.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>());
        partitions.forEach(partition -> counts.merge(partition, 1, Integer::sum));
        return written;
    }

    /** Settles written commits by making them visible, those of the batch written at {@code logOffset}. */
    void apply(String groupId, Map<TopicPartition, CommittedOffset> offsets, long logOffset, long commitTimestamp) {
        offsets.forEach((partition, offset) -> {
            if (!settle(groupId, partition)) {
                store(groupId, partition, new Stored(offset, logOffset, commitTimestamp));
            }
        });
    }

    /**
     * Settles written transactional commits: pending in the producer's transaction, not shown yet; or, if its
     * marker has landed meanwhile, committed or dropped as that marker says.
     */
    void applyTransactional(PendingTransactionalOffsets.Write write, Map<TopicPartition, CommittedOffset> offsets,
                            long logOffset, long commitTimestamp) {
        TransactionResult ended = transactional.settled(write);
        String groupId = write.groupId();
        offsets.forEach((partition, offset) -> {
            if (settle(groupId, partition)) {
                return; // an OffsetDelete's tombstone follows it
            }
            if (ended == null) {
                transactional.add(write.producerId(), groupId, partition,
                        new PendingTransactionalOffsets.Pending(offset, logOffset, commitTimestamp));
            } else if (ended == TransactionResult.COMMIT) {
                store(groupId, partition, new Stored(offset, logOffset, commitTimestamp));
            }
        });
    }

    /** Settles a transactional write without keeping anything of it (not replicated, or its group is gone). */
    void abandonTransactional(PendingTransactionalOffsets.Write write, Collection<TopicPartition> partitions) {
        transactional.settled(write);
        abandon(write.groupId(), partitions);
    }

    /** Settles written commits without showing them (not replicated, or their group is gone). */
    void abandon(String groupId, Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> settle(groupId, partition));
    }

    /** Counts one unsettled commit of the partition settled; true if an OffsetDelete overtook it. */
    private boolean settle(String groupId, TopicPartition partition) {
        countDown(pending, groupId, partition);
        return countDown(overtaken, groupId, partition);
    }

    /** Takes one from the partition's count, if it has one; true if it had. */
    private static boolean countDown(Map<String, Map<TopicPartition, Integer>> counts, String groupId,
                                     TopicPartition partition) {
        boolean[] had = new boolean[1];
        counts.computeIfPresent(groupId, (group, byPartition) -> {
            byPartition.computeIfPresent(partition, (p, n) -> {
                had[0] = true;
                return n == 1 ? null : n - 1;
            });
            return byPartition.isEmpty() ? null : byPartition;
        });
        return had[0];
    }

    Map<TopicPartition, CommittedOffset> all(String groupId) {
        Map<TopicPartition, CommittedOffset> offsets = new HashMap<>();
        byGroup.getOrDefault(groupId, Map.of()).forEach((partition, stored) -> offsets.put(partition, stored.offset()));
        return offsets;
    }

    /** When a settled commit was made, and when it expires if it asked for a time of its own. */
    record SettledCommit(long commitTimestamp, long expireTimestamp) {

        /**
         * Whether it has expired at {@code now}, as Kafka's OffsetExpirationConditionImpl decides: at its own expiry
         * time if it has one, otherwise {@code retentionMs} after {@code since} (its commit, or when its group
         * became Empty).
         */
        boolean expiredAt(long now, long since, long retentionMs) {
            return expireTimestamp != CommittedOffset.NO_EXPIRY ? now >= expireTimestamp : now - since >= retentionMs;
        }
    }

    /**
     * The group's settled commits, leaving out partitions with a commit still being written or pending in an open
     * transaction: what offset expiry may take (Kafka does not expire those either).
     */
    Map<TopicPartition, SettledCommit> settledCommits(String groupId) {
        Map<TopicPartition, Integer> unsettled = pending.getOrDefault(groupId, Map.of());
        Map<TopicPartition, SettledCommit> settled = new HashMap<>();
        byGroup.getOrDefault(groupId, Map.of()).forEach((partition, stored) -> {
            if (!unsettled.containsKey(partition) && !transactional.has(groupId, partition)) {
                settled.put(partition, new SettledCommit(stored.commitTimestamp(), stored.offset().expireTimestamp()));
            }
        });
        return settled;
    }

    /**
     * Whether the group has no commit, shown or still being written, but of these partitions, and no open
     * transaction (Kafka does not delete a group while one is open).
     */
    boolean hasNoCommitsBut(String groupId, Collection<TopicPartition> partitions) {
        return pending.getOrDefault(groupId, Map.of()).isEmpty() && !transactional.hasOpenTransactions(groupId)
                && new HashSet<>(partitions).containsAll(byGroup.getOrDefault(groupId, Map.of()).keySet());
    }

    /**
     * The groups that have committed offsets or an open transaction (after a load, the groups to list as Empty,
     * as Kafka's replay of any commit creates its group).
     */
    Iterable<String> groupIds() {
        Set<String> groupIds = new HashSet<>(byGroup.keySet());
        groupIds.addAll(transactional.groupIds());
        return groupIds;
    }

    /**
     * The group's partitions of these deleted topics (name to id) that have a commit, shown, still being written or
     * pending in a transaction: what deleting the topics tombstones. As Kafka's OffsetMetadataManager.onTopicsDeleted,
     * a shown commit that recorded another topic id (an OffsetCommit v10 of a topic created again under the name)
     * is not the deleted topic's, and stays.
     */
    Set<TopicPartition> partitionsOf(String groupId, Map<String, UUID> deleted) {
        Set<TopicPartition> partitions = partitionsWithCommits(groupId);
        Map<TopicPartition, Stored> shown = byGroup.getOrDefault(groupId, Map.of());
        partitions.removeIf(partition -> {
            if (!deleted.containsKey(partition.topic())) {
                return true;
            }
            Stored stored = shown.get(partition);
            UUID recorded = stored == null ? null : stored.offset().topicId();
            return recorded != null && !recorded.equals(deleted.get(partition.topic()));
        });
        return partitions;
    }

    /** The group's partitions that have a commit, shown, still being written or pending in a transaction. */
    private Set<TopicPartition> partitionsWithCommits(String groupId) {
        Set<TopicPartition> partitions = new HashSet<>(byGroup.getOrDefault(groupId, Map.of()).keySet());
        partitions.addAll(pending.getOrDefault(groupId, Map.of()).keySet());
        partitions.addAll(transactional.partitions(groupId));
        return partitions;
    }

    /** Whether the group has a commit of the partition, shown, still being written or pending in a transaction. */
    boolean hasCommit(String groupId, TopicPartition partition) {
        return byGroup.getOrDefault(groupId, Map.of()).containsKey(partition)
                || pending.getOrDefault(groupId, Map.of()).containsKey(partition)
                || transactional.has(groupId, partition);
    }

    /**
     * Deletes these commits of a group (OffsetDelete, expiry, a topic's deletion), as {@link #deleteGroup} deletes all of them: forgotten once
     * their tombstones are appended, and so are the commits still unsettled then, whose records the tombstones
     * follow; throws LogException, forgetting nothing, if the topic refuses them.
     */
    CompletableFuture<Long> deleteCommits(String groupId, Collection<TopicPartition> partitions) {
        Set<TopicPartition> legacy = new HashSet<>(legacyKeyed.getOrDefault(groupId, Set.of()));
        legacy.retainAll(partitions);
        CompletableFuture<Long> written = log.writeCommitDeletion(groupId, partitions, legacy);
        legacyKeyed.computeIfPresent(groupId, (g, keyed) -> {
            keyed.removeAll(legacy);
            return keyed.isEmpty() ? null : keyed;
        });
        synchronized (transactional) { // see completeTransaction
            byGroup.computeIfPresent(groupId, (group, stored) -> {
                partitions.forEach(stored::remove);
                return stored.isEmpty() ? null : stored;
            });
            partitions.forEach(partition -> transactional.remove(groupId, partition));
        }
        Map<TopicPartition, Integer> unsettled = pending.getOrDefault(groupId, Map.of());
        for (TopicPartition partition : partitions) {
            Integer count = unsettled.get(partition);
            if (count != null) {
                overtaken.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>()).put(partition, count);
            }
        }
        return written;
    }

    /**
     * Deletes a group: forgets its commits once the tombstones of its metadata and of its commits (its unsettled
     * ones and those pending in open transactions too, as Kafka's deleteAllOffsets) are appended in one batch;
     * throws LogException, forgetting nothing, if the topic refuses them. Returns the write, which completes when
     * the tombstones are replicated (at once on a single node). The open transactions stay open until their
     * markers, with nothing of this group left to commit.
     */
    CompletableFuture<Long> deleteGroup(String groupId) {
        return deleteGroup(groupId, List.of(ByteBuffer.wrap(GroupMetadataRecord.key(groupId))));
    }

    /**
     * As {@link #deleteGroup(String)}, the group's own records being these keys (a consumer group's), tombstoned in
     * the same batch as its commits, as Kafka's DeleteGroups writes its one batch.
     */
    CompletableFuture<Long> deleteGroup(String groupId, Collection<ByteBuffer> groupKeys) {
        Set<TopicPartition> partitions = partitionsWithCommits(groupId);
        Set<TopicPartition> inTransactions = transactional.partitions(groupId);
        CompletableFuture<Long> written = log.writeGroupDeletion(groupId, partitions,
                legacyKeyed.getOrDefault(groupId, Set.of()), groupKeys);
        synchronized (transactional) { // see completeTransaction
            inTransactions.forEach(partition -> transactional.remove(groupId, partition));
            byGroup.remove(groupId);
        }
        legacyKeyed.remove(groupId);
        return written;
    }
}
