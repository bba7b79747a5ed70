package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.netty.buffer.ByteBufUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The offsets of classic groups, Kafka's OffsetMetadataManager: OffsetCommit and TxnOffsetCommit, DeleteGroups,
 * OffsetDelete and offset expiry, over the {@link OffsetStore} (which OffsetFetch reads). Every write to {@code __consumer_offsets} runs on
 * the coordinator's thread, which holds the group's lock across its checks and the append, so no DeleteGroups or
 * rebalance can come between the check and the write; an event loop needing that group meanwhile waits for the
 * append. In a cluster the wait for the write's replication holds neither the lock nor the thread: whoever moves the
 * high watermark completes it, and the offsets become visible then, under the lock again.
 */
final class OffsetMetadataManager {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetMetadataManager.class);
    /** From this OffsetCommit version, a generation of a group that does not exist is GROUP_ID_NOT_FOUND. */
    private static final int GROUP_ID_NOT_FOUND_FROM_VERSION = 9;

    private final ClassicGroups groups;
    private final ConsumerGroups consumerGroups;
    private final StreamsGroups streamsGroups;
    private final OffsetStore offsets;
    /** A commit from a member is a sign of life, as a heartbeat. */
    private final MemberSessions sessions;
    private final CoordinatorThread thread;
    /** Commit timestamps and expiry rounds, on the broker's one clock. */
    private final BrokerClock clock;
    /** {@code offsets.retention.minutes}, in milliseconds. */
    private final long offsetsRetentionMs;
    private final int offsetMetadataMaxBytes;

    OffsetMetadataManager(BrokerConfig config, ClassicGroups groups, ConsumerGroups consumerGroups,
                          StreamsGroups streamsGroups, OffsetStore offsets, MemberSessions sessions,
                          CoordinatorThread thread, BrokerClock clock) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.streamsGroups = streamsGroups;
        this.offsets = offsets;
        this.sessions = sessions;
        this.thread = thread;
        this.clock = clock;
        this.offsetsRetentionMs = TimeUnit.MINUTES.toMillis(config.get(BrokerConfig.OFFSETS_RETENTION_MINUTES));
        this.offsetMetadataMaxBytes = config.get(BrokerConfig.OFFSET_METADATA_MAX_BYTES);
    }

    // ----------------------------------------------------------------------------------------- Offset commits

    /**
     * Validates and stores a commit on the coordinator's thread (the append may fsync), completing with each
     * partition's error; metadata longer than {@code offset.metadata.max.bytes} refuses only its partition.
     * Validation, the one batch written for the request and the in-memory update happen under the group's lock.
     * The group id "" is a group like any other here, as Kafka's GroupCoordinatorService refuses only a null one for
     * commits (and fetches), unlike the membership requests.
     */
    CompletableFuture<Map<TopicPartition, Errors>> commitOffsets(OffsetCommit commit) {
        Errors notHere = groups.coordinatorError(commit.groupId());
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, notHere));
        }
        return thread.compose(() -> commitOnCoordinatorThread(commit));
    }

    /**
     * Validates and writes a commit under the group's lock; the future completes once the write counts (at once on
     * a single node; once replicated in a cluster), and only then are the offsets visible to OffsetFetch.
     */
    private CompletableFuture<Map<TopicPartition, Errors>> commitOnCoordinatorThread(OffsetCommit commit) {
        Errors notHere = groups.coordinatorError(commit.groupId()); // leadership may have moved while queued
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, notHere));
        }
        ConsumerGroup consumerGroup = consumerGroups.get(commit.groupId());
        if (consumerGroup != null) {
            synchronized (consumerGroup) {
                Errors refused = consumerGroup.isDead() ? Errors.COORDINATOR_NOT_AVAILABLE
                        : consumerGroup.validateOffsetCommit(commit);
                return refused != Errors.NONE ? CompletableFuture.completedFuture(everyPartition(commit, refused))
                        : write(consumerGroup, consumerGroup::isDead, commit);
            }
        }
        StreamsGroup streamsGroup = streamsGroups.get(commit.groupId());
        if (streamsGroup != null) {
            synchronized (streamsGroup) {
                Errors refused = streamsGroup.isDead() ? Errors.COORDINATOR_NOT_AVAILABLE
                        : streamsGroup.validateOffsetCommit(commit);
                return refused != Errors.NONE ? CompletableFuture.completedFuture(everyPartition(commit, refused))
                        : write(streamsGroup, streamsGroup::isDead, commit);
            }
        }
        ClassicGroup existing = groups.get(commit.groupId());
        if (existing == null && commit.generationId() >= 0) {
            // TxnOffsetCommit never answers GROUP_ID_NOT_FOUND (Kafka's validateTransactionalOffsetCommit).
            return CompletableFuture.completedFuture(everyPartition(commit,
                    !commit.transactional() && commit.version() >= GROUP_ID_NOT_FOUND_FROM_VERSION
                            ? Errors.GROUP_ID_NOT_FOUND : Errors.ILLEGAL_GENERATION));
        }
        // Without a generation the committer does not use group management (assign(), tools): it gets a group,
        // kept only if the commit stores something.
        ClassicGroup group = existing != null ? existing : groups.live(commit.groupId());
        CompletableFuture<Map<TopicPartition, Errors>> written;
        synchronized (group) {
            written = validateAndWrite(group, commit);
        }
        return written.thenApply(errors -> {
            if (existing == null && !errors.containsValue(Errors.NONE)) {
                synchronized (group) {
                    forgetIfUnused(group);
                }
            }
            return errors;
        });
    }

    private CompletableFuture<Map<TopicPartition, Errors>> validateAndWrite(ClassicGroup group, OffsetCommit commit) {
        Errors refused = validateCommit(group, commit);
        if (refused != Errors.NONE) {
            return CompletableFuture.completedFuture(everyPartition(commit, refused));
        }
        return write(group, () -> group.state() == GroupState.DEAD, commit);
    }

    /**
     * Writes a validated commit; {@code group} is the classic or consumer group whose lock the caller holds, and
     * {@code gone} tells, under that lock again once the write counts, whether it was deleted or unloaded meanwhile.
     */
    private CompletableFuture<Map<TopicPartition, Errors>> write(Object group, BooleanSupplier gone,
                                                                 OffsetCommit commit) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        Map<TopicPartition, OffsetStore.CommittedOffset> accepted = new LinkedHashMap<>();
        long commitTimestamp = clock.wallClockMs();
        commit.offsets().forEach((partition, offset) -> {
            if (metadataTooLong(offset)) {
                errors.put(partition, Errors.OFFSET_METADATA_TOO_LARGE);
            } else {
                // A retention time of the request's own (OffsetCommit v2-v4) fixes when the commit expires, as
                // Kafka's OffsetMetadataManager.expireTimestampMs sets it: from the commit's time.
                accepted.put(partition, commit.retentionTimeMs() == OffsetCommit.DEFAULT_RETENTION_TIME ? offset
                        : offset.expiringAt(commitTimestamp + commit.retentionTimeMs()));
                errors.put(partition, Errors.NONE);
            }
        });
        if (accepted.isEmpty()) {
            return CompletableFuture.completedFuture(errors);
        }
        OffsetCommit.Transaction transaction = commit.transaction();
        CompletableFuture<Long> written;
        PendingTransactionalOffsets.Write transactionalWrite;
        try {
            transactionalWrite = transaction == null ? null : offsets.writeTransactional(commit.groupId(),
                    transaction, accepted, commitTimestamp);
            written = transaction == null ? offsets.write(commit.groupId(), accepted, commitTimestamp)
                    : transactionalWrite.written();
        } catch (LogException e) {
            return CompletableFuture.completedFuture(everyPartition(commit, CoordinatorWriteErrors.answerFor(e)));
        }
        return written.handle((logOffset, failure) -> {
            synchronized (group) {
                boolean counts = failure == null && !gone.getAsBoolean();
                if (transactionalWrite == null && counts) {
                    offsets.apply(commit.groupId(), accepted, logOffset, commitTimestamp);
                } else if (counts) { // pending until the producer's marker lands on this partition of the topic
                    offsets.applyTransactional(transactionalWrite, accepted, logOffset, commitTimestamp);
                } else if (transactionalWrite == null) {
                    offsets.abandon(commit.groupId(), accepted.keySet()); // deleted or unloaded meanwhile
                } else {
                    offsets.abandonTransactional(transactionalWrite, accepted.keySet());
                }
            }
            // A failure fails the whole request, as in Kafka.
            return failure == null ? errors : everyPartition(commit, CoordinatorWriteErrors.answerFor(failure));
        });
    }

    /**
     * Drops a group that nothing uses: no member, none pending, no offsets (one created for a simple commit that
     * stored nothing), so that ListGroups does not report it. A join that found it meanwhile sees it Dead and
     * retries on a fresh group.
     */
    private void forgetIfUnused(ClassicGroup group) {
        if (group.state() == GroupState.EMPTY && group.members.isEmpty() && group.pendingMembers.isEmpty()
                && offsets.all(group.groupId).isEmpty()) {
            groups.remove(group);
        }
    }

    /**
     * Kafka compares the metadata string's length in chars, not its UTF-8 bytes, with the "bytes" limit. Past
     * that, a string too long for the int16 length OffsetCommitValue stores it with is refused too (Kafka would fail
     * to serialise it), whatever {@code offset.metadata.max.bytes} allows.
     */
    private boolean metadataTooLong(OffsetStore.CommittedOffset offset) {
        return offset.metadata() != null && (offset.metadata().length() > offsetMetadataMaxBytes
                || ByteBufUtil.utf8Bytes(offset.metadata()) > Short.MAX_VALUE);
    }

    /**
     * Who may commit, by Kafka's rules: anyone without a generation while the group is Empty (a simple commit,
     * whatever member id it names); otherwise the member of the current generation, during Stable or
     * PreparingRebalance (so that eager consumers can commit before giving partitions up). A simple commit
     * naming no member while the group has members is from nobody it knows. A TxnOffsetCommit naming neither
     * generation nor member (before v3 none can) is accepted in any state, and one from a member is accepted
     * whatever the group's state, as Kafka does not enforce the state for transactional commits; neither is a
     * sign of the member's life.
     */
    private Errors validateCommit(ClassicGroup group, OffsetCommit commit) {
        if (group.state() == GroupState.DEAD) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (commit.generationId() < 0 && group.state() == GroupState.EMPTY) {
            return Errors.NONE;
        }
        if (commit.generationId() < 0 && commit.memberId().isEmpty() && commit.groupInstanceId() == null) {
            return commit.transactional() ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        }
        Errors instance = group.checkInstance(commit.groupInstanceId(), commit.memberId());
        if (instance != Errors.NONE) {
            return instance;
        }
        GroupMember member = group.members.get(commit.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (commit.generationId() != group.generationId) {
            return Errors.ILLEGAL_GENERATION;
        }
        if (commit.transactional()) {
            return Errors.NONE;
        }
        if (group.state() == GroupState.COMPLETING_REBALANCE) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        sessions.markAlive(group, member);
        return Errors.NONE;
    }

    private static Map<TopicPartition, Errors> everyPartition(OffsetCommit commit, Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        commit.offsets().keySet().forEach(partition -> errors.put(partition, error));
        return errors;
    }

    // ------------------------------------------------------------------------------------------- DeleteGroups

    /**
     * Deletes a group that has no members, with its offsets, on the coordinator's thread; completes with the
     * error for DeleteGroups once the tombstones are replicated, as Kafka 4's coordinator answers after its write
     * commits. The tombstones are appended before the group is forgotten, under its lock: if the offsets topic
     * refuses them, the group stays whole and the client may retry. If they are appended but not replicated in
     * time, the group is gone here and the client gets the write's error; its retry finds it gone
     * (GROUP_ID_NOT_FOUND), or, should this leader have failed meanwhile, deletes it at the new one.
     */
    CompletableFuture<Errors> delete(String groupId) {
        return deletion(groupId, error -> error, groups::get, group -> group.state() == GroupState.DEAD, group -> {
            if (!group.members.isEmpty()) {
                return Deletion.answered(Errors.NON_EMPTY_GROUP);
            }
            CompletableFuture<Long> written = offsets.deleteGroup(groupId);
            groups.remove(group);
            return new Deletion<>(Errors.NONE, written);
        });
    }

    // ------------------------------------------------------------------------------------------- OffsetDelete

    /**
     * OffsetDelete, as Kafka's coordinator answers it: GROUP_ID_NOT_FOUND for a group it does not know; for a
     * group with members, GROUP_SUBSCRIBED_TO_TOPIC for the partitions of topics its consumers subscribe to (every
     * topic while a classic consumer group's subscriptions cannot all be read; a streams group's: its topology's
     * input topics), and NON_EMPTY_GROUP for the whole request if it is a classic
     * group of another protocol type; every other partition's commit is
     * deleted with a tombstone. Written on the coordinator's thread; the answer waits for the write.
     */
    CompletableFuture<OffsetDeletion> deleteOffsets(String groupId, Collection<TopicPartition> partitions) {
        Function<Errors, OffsetDeletion> error = failed -> new OffsetDeletion(failed, Map.of());
        if (streamsGroups.get(groupId) != null) {
            return deletion(groupId, error, streamsGroups::get, StreamsGroup::isDead,
                    group -> deleteCommits(groupId, partitions, group.subscribedTopics()::contains));
        }
        return deletion(groupId, error, groups::get, group -> group.state() == GroupState.DEAD, group -> {
            if (group.members.isEmpty()) {
                return deleteCommits(groupId, partitions, topic -> false);
            }
            if (!ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType)) {
                return Deletion.answered(new OffsetDeletion(Errors.NON_EMPTY_GROUP, Map.of()));
            }
            return deleteCommits(groupId, partitions, group::isSubscribedToTopic);
        });
    }

    /**
     * Deletes the group's commits of these partitions but those of {@code subscribed} topics, which are answered
     * GROUP_SUBSCRIBED_TO_TOPIC; the caller holds the group's lock.
     */
    private Deletion<OffsetDeletion> deleteCommits(String groupId, Collection<TopicPartition> partitions,
                                                   Predicate<String> subscribed) {
        Map<TopicPartition, Errors> answers = new LinkedHashMap<>();
        List<TopicPartition> deleted = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            boolean consumed = subscribed.test(partition.topic());
            answers.put(partition, consumed ? Errors.GROUP_SUBSCRIBED_TO_TOPIC : Errors.NONE);
            if (!consumed && offsets.hasCommit(groupId, partition)) {
                deleted.add(partition);
            }
        }
        OffsetDeletion done = new OffsetDeletion(Errors.NONE, answers);
        return deleted.isEmpty() ? Deletion.answered(done)
                : new Deletion<>(done, offsets.deleteCommits(groupId, deleted));
    }

    /** A deletion's outcome under the group's lock: its answer, once {@code written} (null: nothing) counts. */
    private record Deletion<T>(T answer, CompletableFuture<Long> written) {
        static <T> Deletion<T> answered(T answer) {
            return new Deletion<>(answer, null);
        }
    }

    /**
     * What DeleteGroups and OffsetDelete share: on the coordinator's thread, with the group ({@code lookup}, a classic
     * or a streams group) coordinated here (else the coordinator's error) and alive (else GROUP_ID_NOT_FOUND),
     * {@code body} runs under the group's lock;
     * its write's failure is answered as Kafka maps it, through {@code error}, which wraps an error in the API's
     * answer.
     */
    private <G, T> CompletableFuture<T> deletion(String groupId, Function<Errors, T> error,
                                                 Function<String, G> lookup, Predicate<G> isDead,
                                                 Function<G, Deletion<T>> body) {
        Errors notHere = groups.coordinatorError(groupId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(error.apply(notHere));
        }
        return thread.compose(() -> {
            Errors stillNotHere = groups.coordinatorError(groupId);
            if (stillNotHere != Errors.NONE) {
                return CompletableFuture.completedFuture(error.apply(stillNotHere));
            }
            G group = lookup.apply(groupId);
            if (group == null) {
                return CompletableFuture.completedFuture(error.apply(Errors.GROUP_ID_NOT_FOUND));
            }
            Deletion<T> outcome;
            synchronized (group) {
                if (isDead.test(group)) {
                    return CompletableFuture.completedFuture(error.apply(Errors.GROUP_ID_NOT_FOUND));
                }
                try {
                    outcome = body.apply(group);
                } catch (LogException e) { // the offsets topic refused the write at once: nothing changed
                    return CompletableFuture.completedFuture(error.apply(CoordinatorWriteErrors.answerFor(e)));
                }
            }
            if (outcome.written() == null) {
                return CompletableFuture.completedFuture(outcome.answer());
            }
            return outcome.written().handle((offset, failure) -> failure == null ? outcome.answer()
                    : error.apply(CoordinatorWriteErrors.answerFor(failure)));
        });
    }

    // ----------------------------------------------------------------------------------------- Deleted topics

    /**
     * Deletes every commit of these topics' partitions, as Kafka's OffsetMetadataManager.onTopicsDeleted: on the
     * coordinator's thread (after the loads queued before, so a partition this broker just took over is covered),
     * each group coordinated here loses its commits of them, shown, still being written or pending in an open
     * transaction (whose marker then brings nothing back), with one batch of tombstones per group, under its lock.
     * Nothing else of a group changes: one left without commits stays, Empty, until the next expiry round deletes it,
     * as Kafka's does; a share group has no commits. Every commit of the names goes: they record no topic id (Kafka
     * keeps one that recorded the id of a topic created again under the name). Completes, once the tombstones
     * count, with how many commits they deleted (a write that fails is logged, not counted).
     */
    CompletableFuture<Integer> deleteCommitsOfTopics(Map<String, UUID> topics) {
        return thread.compose(() -> {
            List<CompletableFuture<Integer>> deletions = new ArrayList<>();
            groups.all().forEach(group -> deletions.add(deleteCommitsOfTopics(group, group.groupId,
                    () -> group.state() == GroupState.DEAD, topics)));
            consumerGroups.all().forEach(group -> deletions.add(deleteCommitsOfTopics(group, group.groupId,
                    group::isDead, topics)));
            streamsGroups.all().forEach(group -> deletions.add(deleteCommitsOfTopics(group, group.groupId,
                    group::isDead, topics)));
            return CompletableFuture.allOf(deletions.toArray(CompletableFuture[]::new)).thenApply(done -> {
                int deleted = deletions.stream().mapToInt(CompletableFuture::join).sum();
                if (deleted > 0) {
                    LOG.info("Deleted {} offsets of the deleted topics {}", deleted, topics.keySet());
                }
                return deleted;
            });
        });
    }

    /**
     * {@link #deleteCommitsOfTopics(Map)} for a caller that does not wait for it (a topic's deletion): a failure is
     * logged, and once the broker is stopping nothing is queued, the commits staying as they would had it stopped a
     * moment before the deletion.
     */
    void onTopicsDeleted(Map<String, UUID> topics) {
        try {
            deleteCommitsOfTopics(topics).whenComplete((deleted, failure) -> {
                if (failure != null) {
                    LOG.error("Could not delete the offsets of the deleted topics {}", topics, failure);
                }
            });
        } catch (RejectedExecutionException stopping) {
            LOG.info("Not deleting the offsets of the deleted topics {}: the group coordinator is stopping", topics);
        }
    }

    /** The group's part of {@link #deleteCommitsOfTopics(Map)}: {@code group} is its lock, {@code dead} its state. */
    private CompletableFuture<Integer> deleteCommitsOfTopics(Object group, String groupId, BooleanSupplier dead,
                                                             Map<String, UUID> topics) {
        if (groups.coordinatorError(groupId) != Errors.NONE) {
            return CompletableFuture.completedFuture(0);
        }
        synchronized (group) {
            Set<TopicPartition> partitions = dead.getAsBoolean() ? Set.of() : offsets.partitionsOf(groupId, topics);
            if (partitions.isEmpty()) {
                return CompletableFuture.completedFuture(0);
            }
            CompletableFuture<Long> written;
            try {
                written = offsets.deleteCommits(groupId, partitions);
            } catch (LogException e) {
                LOG.warn("Could not write the tombstones of {}'s offsets of deleted topics: {}", groupId,
                        e.getMessage());
                return CompletableFuture.completedFuture(0);
            }
            return warnIfNotReplicated(groupId, "offsets of deleted topics", written)
                    .handle((offset, failure) -> failure == null ? partitions.size() : 0);
        }
    }

    // ------------------------------------------------------------------------------------------ Offset expiry

    /** Starts the expiry rounds, every {@code offsets.retention.check.interval.ms} on the coordinator's thread. */
    void scheduleExpiry(BrokerConfig config) {
        long checkIntervalMs = config.get(BrokerConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS);
        thread.scheduleWithFixedDelay(clock, "Offset expiry", checkIntervalMs,
                () -> expireOffsetsOnCoordinatorThread(clock.wallClockMs()));
    }

    /** An expiry round as of {@code now} (see below), queued on the coordinator's thread. */
    CompletableFuture<Integer> expireOffsets(long now) {
        return thread.supply(() -> expireOffsetsOnCoordinatorThread(now));
    }

    /**
     * Kafka's offset expiry: commits older than {@code offsets.retention.minutes} are deleted with tombstones where
     * Kafka lets them go. An Empty group's all go, timed from when it became Empty (each from its commit if that is
     * unknown); a group that never had members (simple commits) loses each from its own commit; a consumer group with
     * members only those of topics no member subscribes to, a streams group with members those of topics its
     * topology does not read, from their commits; a commit still being written stays. A
     * group then Empty (classic) or without members (consumer, streams) with no commit left is deleted, its records
     * tombstoned, as Kafka 4's coordinator deletes it.
     * Returns how many commits expired; {@code now} is the wall-clock time commits are stamped with.
     */
    private int expireOffsetsOnCoordinatorThread(long now) {
        int expired = 0;
        for (ClassicGroup group : groups.all()) {
            if (groups.coordinatorError(group.groupId) != Errors.NONE) {
                continue;
            }
            synchronized (group) {
                if (group.state() != GroupState.DEAD) {
                    expired += expireOffsets(group, now);
                }
            }
        }
        for (ConsumerGroup group : consumerGroups.all()) {
            if (groups.coordinatorError(group.groupId) != Errors.NONE) {
                continue;
            }
            synchronized (group) {
                if (!group.isDead()) {
                    boolean empty = group.members.isEmpty();
                    expired += expireCommits(group.groupId, empty ? Set.of() : group.subscriptionMetadata.keySet(),
                            now, empty ? new EmptyGroup(ConsumerGroupRecords.tombstones(group).keySet(),
                                    () -> consumerGroups.remove(group)) : null);
                }
            }
        }
        for (StreamsGroup group : streamsGroups.all()) {
            if (groups.coordinatorError(group.groupId) != Errors.NONE) {
                continue;
            }
            synchronized (group) {
                if (!group.isDead()) {
                    expired += expireCommits(group.groupId, group.subscribedTopics(), now, group.members.isEmpty()
                            ? new EmptyGroup(ConsumerGroupRecords.diff(group.written, Map.of()).keySet(),
                                    () -> streamsGroups.forget(group)) : null);
                }
            }
        }
        if (expired > 0) {
            LOG.info("Removed {} expired offsets", expired);
        }
        return expired;
    }

    /**
     * A consumer or streams group without members, as expiry sees it: the keys of its records in the log, and how
     * it is forgotten.
     */
    private record EmptyGroup(Collection<ByteBuffer> records, Runnable forget) {
    }

    /**
     * A KIP-848 consumer group's or a streams group's commits expire as Kafka's ConsumerGroup and StreamsGroup let
     * them: each from its own commit, and only for topics not in {@code subscribed} (what its members subscribe to,
     * or a streams group's input topics, while it has members). An {@code empty} group (null if it has members)
     * left without commits, expired or never made, and without open transactional ones, is deleted, as Kafka's
     * cleanupGroupMetadata deletes it: its records' tombstones go in the batch of its commits' and it is forgotten.
     * The caller holds the group's lock.
     */
    private int expireCommits(String groupId, Set<String> subscribed, long now, EmptyGroup empty) {
        List<TopicPartition> expired = new ArrayList<>();
        offsets.settledCommits(groupId).forEach((partition, commit) -> {
            if (!subscribed.contains(partition.topic())
                    && commit.expiredAt(now, commit.commitTimestamp(), offsetsRetentionMs)) {
                expired.add(partition);
            }
        });
        boolean deleted = empty != null && offsets.hasNoCommitsBut(groupId, expired);
        if (!deleted && expired.isEmpty()) {
            return 0;
        }
        Collection<ByteBuffer> records = deleted ? empty.records() : List.of();
        CompletableFuture<Long> written;
        try {
            if (!records.isEmpty()) {
                written = offsets.deleteGroup(groupId, records);
            } else if (!expired.isEmpty()) {
                written = offsets.deleteCommits(groupId, expired);
            } else {
                written = CompletableFuture.completedFuture(-1L); // nothing of it is in the log
            }
        } catch (LogException e) {
            LOG.warn("Could not write the tombstones of {}'s expired offsets: {}", groupId, e.getMessage());
            return 0;
        }
        warnIfNotReplicated(groupId, "expired offsets", written);
        if (deleted) {
            empty.forget().run();
            LOG.info("Deleted group {}: Empty, and its offsets expired", groupId);
        }
        return expired.size();
    }

    /** Logs a failure of the write of the tombstones of the group's {@code what}; returns the write. */
    private static CompletableFuture<Long> warnIfNotReplicated(String groupId, String what,
                                                               CompletableFuture<Long> written) {
        return written.whenComplete((offset, failure) -> {
            if (failure != null) {
                LOG.warn("The tombstones of {}'s {} were not replicated: {}", groupId, what,
                        Failures.cause(failure).toString());
            }
        });
    }

    /**
     * Expires the group's commits, and deletes the group if that leaves it Empty without any: its metadata
     * tombstone (if members ever joined it) goes in the same batch as its commits' tombstones, so that the log never
     * holds a group whose commits are half gone. Returns how many commits expired.
     */
    private int expireOffsets(ClassicGroup group, long now) {
        List<TopicPartition> expired = expiredCommits(group, now);
        boolean emptied = group.state() == GroupState.EMPTY && group.members.isEmpty()
                && group.pendingMembers.isEmpty() && offsets.hasNoCommitsBut(group.groupId, expired);
        if (!emptied && expired.isEmpty()) {
            return 0;
        }
        CompletableFuture<Long> written;
        try {
            if (emptied && group.protocolType != null) { // members joined it once: its metadata record goes too
                written = offsets.deleteGroup(group.groupId);
            } else if (!expired.isEmpty()) {
                written = offsets.deleteCommits(group.groupId, expired);
            } else {
                written = CompletableFuture.completedFuture(-1L); // nothing of it is in the log
            }
        } catch (LogException e) {
            LOG.warn("Could not write the tombstones of {}'s expired offsets: {}", group.groupId, e.getMessage());
            return 0;
        }
        warnIfNotReplicated(group.groupId, "expired offsets", written);
        if (emptied) {
            groups.remove(group);
            LOG.info("Deleted group {}: Empty, and its offsets expired", group.groupId);
        }
        return expired.size();
    }

    /** The group's settled commits that Kafka's rules (above) let expire as of {@code now}. */
    private List<TopicPartition> expiredCommits(ClassicGroup group, long now) {
        boolean simple = group.protocolType == null || group.protocolType.isEmpty();
        Set<String> keptTopics;
        long emptySince = -1;
        if (simple) {
            keptTopics = Set.of();
        } else if (group.state() == GroupState.EMPTY) {
            keptTopics = Set.of();
            emptySince = group.emptySinceMs;
        } else if (group.state() == GroupState.STABLE
                && ConsumerSubscription.PROTOCOL_TYPE.equals(group.protocolType)) {
            Optional<Set<String>> subscribed = group.knownSubscribedTopics();
            if (subscribed.isEmpty()) {
                return List.of();
            }
            keptTopics = subscribed.get();
        } else {
            return List.of(); // rebalancing, or members of another protocol: Kafka expires nothing then
        }
        List<TopicPartition> expired = new ArrayList<>();
        for (Map.Entry<TopicPartition, OffsetStore.SettledCommit> commit
                : offsets.settledCommits(group.groupId).entrySet()) {
            long since = emptySince >= 0 ? emptySince : commit.getValue().commitTimestamp();
            if (!keptTopics.contains(commit.getKey().topic())
                    && commit.getValue().expiredAt(now, since, offsetsRetentionMs)) {
                expired.add(commit.getKey());
            }
        }
        return expired;
    }
}
