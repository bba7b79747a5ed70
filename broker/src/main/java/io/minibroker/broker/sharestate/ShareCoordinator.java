package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.share.Persister;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.broker.sharestate.ShareStateRecords.Stored;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Kafka's share coordinator: the share partitions' state in {@code __share_group_state}, served by the leader of the
 * partition a share partition's key ({@code groupId:topicId:partition}, the topic id in Kafka's text form) hashes to.
 * On its own thread: a partition of the topic is replayed into memory the first time it is asked for under a leader
 * epoch (so a node that becomes its leader reads what the previous leader wrote), and each write appends a
 * ShareSnapshot record through the replicated log, counting once the log says so (on a cluster, replicated to
 * {@code min.insync.replicas}); the records every share partition has superseded are pruned every
 * {@code share.coordinator.state.topic.prune.interval.ms}. Leader and state epochs fence as in Kafka's
 * ShareCoordinatorShard: a write or read from a share-partition leader older than the last one seen is
 * FENCED_LEADER_EPOCH, so a node that lost a partition's leadership cannot overwrite its new leader's state, and a
 * write made on a state initialized again since (a newer state epoch) is FENCED_STATE_EPOCH.
 */
public final class ShareCoordinator implements TopicDeletionListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShareCoordinator.class);
    public static final String NAME = InternalTopics.SHARE_GROUP_STATE;
    /** How long the stop waits for the work already queued (its writes to be appended). */
    private static final long STOP_TIMEOUT_S = 30;

    /**
     * A read's answer: NONE and the state (its snapshot null when it has no start offset yet), or the error with
     * Kafka's message for it ({@link ShareStateMessages}).
     */
    public record ReadResult(Errors error, String message, ShareStateSnapshot snapshot, int stateEpoch) {
        static ReadResult failed(Errors error, String message) {
            return new ReadResult(error, message, null, -1);
        }

        /** Refused by the coordinator's checks, with the error's own message, as Kafka's shard refuses. */
        static ReadResult refused(Errors error) {
            return failed(error, DefaultMessages.of(error));
        }

        ReadResult(Errors error, ShareStateSnapshot snapshot, int stateEpoch) {
            this(error, null, snapshot, stateEpoch);
        }
    }

    /** A write's answer: NONE, or the error with Kafka's message for it ({@link ShareStateMessages}). */
    public record WriteResult(Errors error, String message) {
        static final WriteResult DONE = new WriteResult(Errors.NONE, null);

        static WriteResult refused(Errors error) {
            return new WriteResult(error, DefaultMessages.of(error));
        }
    }

    /**
     * An append's outcome: NONE, or the error answered (mapped as the other coordinators map a failed write) and the
     * one the append failed with, whose message Kafka's answer carries.
     */
    private record Appended(Errors error, Errors cause) {
        static final Appended DONE = new Appended(Errors.NONE, Errors.NONE);
    }

    /**
     * ReadShareGroupStateSummary's answer, as Kafka's share coordinator gives it: the start offset (-1 with no
     * state), the epochs the state was last written with (0 with none), and the offsets from the start offset on
     * whose delivery is complete (acknowledged or archived; -1 with no state).
     */
    public record Summary(Errors error, long startOffset, int leaderEpoch, int stateEpoch, int deliveryCompleteCount) {
        static final Summary NO_STATE = new Summary(Errors.NONE, -1, 0, 0, -1);

        static Summary failed(Errors error) {
            return new Summary(error, -1, -1, -1, -1);
        }
    }

    /**
     * One partition of the topic as replayed under one leader epoch: each share partition's state, the offset of its
     * latest record (below the least of which every record is superseded, so may be pruned), and, as Kafka's
     * ShareCoordinatorShard keeps them apart from the state, the greatest leader and state epochs its records carried:
     * what fences the requests of older leaders (FENCED_LEADER_EPOCH) and of older initializations
     * (FENCED_STATE_EPOCH). A record written with an epoch of -1 or lower does not lower them.
     */
    private record Loaded(int leaderEpoch, Map<SharePartitionKey, Stored> states,
                          Map<SharePartitionKey, Long> latestOffsets, Map<SharePartitionKey, Integer> leaderEpochs,
                          Map<SharePartitionKey, Integer> stateEpochs) {
        Loaded(int leaderEpoch) {
            this(leaderEpoch, new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        }

        void apply(SharePartitionKey key, Stored stored) {
            states.put(key, stored);
            leaderEpochs.merge(key, stored.leaderEpoch(), Math::max);
            stateEpochs.merge(key, stored.stateEpoch(), Math::max);
        }

        void forget(SharePartitionKey key) {
            states.remove(key);
            latestOffsets.remove(key);
            leaderEpochs.remove(key);
            stateEpochs.remove(key);
        }

        /**
         * {@code requested} is older than the greatest epoch seen in {@code epochs}; -1 (not given:
         * {@link Persister#NO_LEADER_EPOCH}, {@link Persister#NO_STATE_EPOCH}) never is.
         */
        static boolean older(Map<SharePartitionKey, Integer> epochs, SharePartitionKey key, int requested) {
            Integer known = epochs.get(key);
            return requested != -1 && known != null && known > requested;
        }
    }

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;
    private final CoordinatorAppender appender;
    private final BrokerClock clock;
    private final ExecutorService thread;
    /** A single node creates the topic itself when first asked; a cluster's share-partition leaders have it created. */
    private final boolean createsTopic;
    /** share.coordinator.state.topic.prune.interval.ms: how often a partition's superseded records are deleted. */
    private final long pruneIntervalMs;
    /** When each partition of the topic was last pruned (or first written here); on {@link #thread} only. */
    private final Map<Integer, Long> lastPrunes = new HashMap<>();
    /** How each request not answered yet is answered if the stop cuts it short. */
    private final Map<CompletableFuture<?>, Runnable> unanswered = new ConcurrentHashMap<>();
    /** The thread of {@link #thread}, once it has one. */
    private volatile Thread ownThread;
    /** By partition of the topic; touched on {@link #thread} only. */
    private final Map<Integer, Loaded> loaded = new HashMap<>();

    public ShareCoordinator(TopicRegistry topics, PartitionLeadership leadership, CoordinatorAppender appender,
                            BrokerClock clock, boolean createsTopic, long pruneIntervalMs, String threadName) {
        this.createsTopic = createsTopic;
        this.pruneIntervalMs = pruneIntervalMs;
        this.topics = topics;
        this.leadership = leadership;
        this.appender = appender;
        this.clock = clock;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread made = new Thread(task, threadName);
            ownThread = made;
            return made;
        });
    }

    /** Kafka's partition of a share partition in {@code __share_group_state}. */
    private static int partitionFor(SharePartitionKey key, int partitions) {
        return InternalTopics.partitionFor(key.coordinatorKey(), partitions);
    }

    /**
     * ReadShareGroupState, as Kafka's {@code readStateAndMaybeUpdateLeaderEpoch}: a share partition never initialized
     * (or deleted since) is INVALID_REQUEST, its state read by no one; a leader older than the last seen is
     * FENCED_LEADER_EPOCH; a newer one (a new leader loading the share partition) has its epoch written in a
     * ShareSnapshot record before it is answered, so that the writes of earlier leaders stay fenced after the
     * coordinator reloads the topic (a restart, another node leading the partition). Leader epoch -1 (not given)
     * is neither fenced nor fences, and writes nothing, as in Kafka 4.3's ShareCoordinatorShard (whose read check,
     * maybeGetReadStateError, skips the leader-epoch check for -1 as its write check does).
     */
    public CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch) {
        return onThread("read", ReadResult::failed, () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            Stored stored = partition.states().get(key);
            if (stored == null) {
                return CompletableFuture.completedFuture(
                        ReadResult.failed(Errors.INVALID_REQUEST, ShareStateMessages.READ_UNINITIALIZED));
            }
            if (Loaded.older(partition.leaderEpochs(), key, leaderEpoch)) {
                return CompletableFuture.completedFuture(ReadResult.refused(Errors.FENCED_LEADER_EPOCH));
            }
            if (!dataPartitionExists(key)) {
                return CompletableFuture.completedFuture(ReadResult.refused(Errors.UNKNOWN_TOPIC_OR_PARTITION));
            }
            ReadResult answer = stored.snapshot().startOffset() < 0
                    ? new ReadResult(Errors.NONE, null, stored.stateEpoch())
                    : new ReadResult(Errors.NONE, stored.snapshot(), stored.stateEpoch());
            Integer known = partition.leaderEpochs().get(key);
            if (leaderEpoch == Persister.NO_LEADER_EPOCH || (known != null && known == leaderEpoch)) {
                return CompletableFuture.completedFuture(answer);
            }
            Stored raised = new Stored(stored.snapshot(), stored.snapshotEpoch() + 1, stored.stateEpoch(), leaderEpoch,
                    stored.createTimestamp(), stored.deliveryCompleteCount());
            return store(partition, log, key, raised).thenApply(appended -> appended.error() == Errors.NONE ? answer
                    : ReadResult.failed(appended.error(), ShareStateMessages.unable("read", appended.cause())));
        });
    }

    /**
     * WriteShareGroupState, checked as Kafka's coordinator checks it: a share partition never initialized is
     * INVALID_REQUEST (a write makes no state: InitializeShareGroupState does); a leader epoch older than the greatest
     * seen is FENCED_LEADER_EPOCH, then a state epoch older than the greatest seen (the state was initialized again
     * since, by AlterShareGroupOffsets or InitializeShareGroupState) is FENCED_STATE_EPOCH; -1 in either is not
     * checked, and keeps the stored epoch. {@code deliveryCompleteCount} is stored as sent (WriteShareGroupState v1; -1
     * from v0), as Kafka's coordinator stores it, for ReadShareGroupStateSummary.
     */
    public CompletableFuture<WriteResult> write(SharePartitionKey key, ShareStateSnapshot snapshot,
                                                int leaderEpoch, int stateEpoch, int deliveryCompleteCount) {
        return onThread("write", WriteResult::new, () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            Stored previous = partition.states().get(key);
            if (previous == null) {
                return CompletableFuture.completedFuture(
                        new WriteResult(Errors.INVALID_REQUEST, ShareStateMessages.WRITE_UNINITIALIZED));
            }
            Errors refused = Loaded.older(partition.leaderEpochs(), key, leaderEpoch) ? Errors.FENCED_LEADER_EPOCH
                    : Loaded.older(partition.stateEpochs(), key, stateEpoch) ? Errors.FENCED_STATE_EPOCH
                    : !dataPartitionExists(key) ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NONE;
            if (refused != Errors.NONE) {
                return CompletableFuture.completedFuture(WriteResult.refused(refused));
            }
            Stored next = new Stored(snapshot, previous.snapshotEpoch() + 1,
                    stateEpoch == Persister.NO_STATE_EPOCH ? previous.stateEpoch() : stateEpoch,
                    leaderEpoch == Persister.NO_LEADER_EPOCH ? previous.leaderEpoch() : leaderEpoch,
                    previous.createTimestamp(), deliveryCompleteCount);
            return store(partition, log, key, next).thenApply(appended -> appended.error() == Errors.NONE
                    ? WriteResult.DONE
                    : new WriteResult(appended.error(), ShareStateMessages.unable("write", appended.cause())));
        });
    }

    /**
     * InitializeShareGroupState, as Kafka's {@code initializeState}: a state epoch older than the greatest seen is
     * FENCED_STATE_EPOCH; otherwise the share partition's state is replaced by one starting at {@code startOffset}
     * (-1: where {@code share.auto.offset.reset} says, at its first fetch) with nothing in flight, written with the
     * new state epoch and leader epoch 0 (the greatest leader epoch seen still fences).
     */
    public CompletableFuture<Errors> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
        return onThread("initialize", (error, message) -> error, () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            if (Loaded.older(partition.stateEpochs(), key, stateEpoch)) {
                return CompletableFuture.completedFuture(Errors.FENCED_STATE_EPOCH);
            }
            if (!dataPartitionExists(key)) {
                return CompletableFuture.completedFuture(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            }
            Stored previous = partition.states().get(key);
            long now = clock.wallClockMs();
            // As Kafka's: no offset is complete at a start offset set, and none is known without one.
            Stored initialized = new Stored(new ShareStateSnapshot(startOffset, List.of()),
                    previous == null ? 0 : previous.snapshotEpoch() + 1, stateEpoch, 0, now,
                    startOffset == Persister.NO_START_OFFSET ? -1 : 0);
            return store(partition, log, key, initialized).thenApply(Appended::error);
        });
    }

    /**
     * ReadShareGroupStateSummary (DescribeShareGroupOffsets' read), as Kafka's {@code readStateSummary}: the state's
     * start offset, epochs and stored DeliveryCompleteCount, fencing no leader and writing nothing.
     */
    public CompletableFuture<Summary> summary(SharePartitionKey key) {
        return onThread("summarize", (error, message) -> Summary.failed(error), () -> {
            Loaded partition = load(leaderLog(valid(key)));
            if (!dataPartitionExists(key)) {
                return CompletableFuture.completedFuture(Summary.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION));
            }
            Stored stored = partition.states().get(key);
            if (stored == null) {
                return CompletableFuture.completedFuture(Summary.NO_STATE);
            }
            return CompletableFuture.completedFuture(new Summary(Errors.NONE, stored.snapshot().startOffset(),
                    stored.leaderEpoch(), stored.stateEpoch(), stored.deliveryCompleteCount()));
        });
    }

    /** Writes {@code next} as the share partition's state: in memory now, counting once the log says so. */
    private CompletableFuture<Appended> store(Loaded partition, PartitionLog log, SharePartitionKey key,
                                              Stored next) {
        CompletableFuture<Appended> written = append(partition, log, key,
                ShareStateRecords.value(next, clock.wallClockMs()));
        partition.apply(key, next);
        return written;
    }

    /** Forgets a share partition's state (DeleteShareGroupState): a tombstone. */
    public CompletableFuture<Errors> delete(SharePartitionKey key) {
        return onThread("delete", (error, message) -> error, () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            if (!partition.states().containsKey(key)) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            partition.forget(key);
            return append(partition, log, key, null).thenApply(Appended::error);
        });
    }

    /**
     * Topics were deleted: every share partition's state of theirs in the partitions of the topic this node leads goes,
     * with one batch of tombstones per partition, as Kafka's ShareCoordinatorShard.maybeCleanupShareState (called on
     * every broker as its metadata loses a topic); a partition led elsewhere is its leader's to clean. Queued on the
     * coordinator's thread, so the caller (a single node's {@code disk-io}, a cluster broker's image thread) does not
     * wait; once the broker is stopping, nothing is queued, the state staying as it would had the stop come first.
     */
    @Override
    public void onTopicsDeleted(Collection<TopicMetadata> deleted) {
        Set<UUID> topicIds = new HashSet<>();
        deleted.forEach(topic -> topicIds.add(topic.id()));
        CompletableFuture<Integer> cleaned = deleteStateOfTopics(topicIds);
        cleaned.whenComplete((count, failure) -> {
            if (failure != null) {
                LOG.error("Could not delete the share state of the deleted topics {}", topicIds, failure);
            } else if (count > 0) {
                LOG.info("Deleted the share state of {} share partitions of the deleted topics {}", count, topicIds);
            }
        });
    }

    /**
     * {@link #onTopicsDeleted}, by topic id: completes, once the tombstones count, with how many share partitions'
     * state they deleted (a write that fails is logged, not counted; a stop answers 0).
     */
    CompletableFuture<Integer> deleteStateOfTopics(Set<UUID> topicIds) {
        return onThread("delete", (error, message) -> 0, () -> {
            Optional<TopicMetadata> stateTopic = topics.get(NAME);
            if (stateTopic.isEmpty() || topicIds.isEmpty()) {
                return CompletableFuture.completedFuture(0);
            }
            List<CompletableFuture<Integer>> deletions = new ArrayList<>();
            for (int index = 0; index < stateTopic.get().partitions(); index++) {
                topics.partitionLog(stateTopic.get(), index)
                        .filter(log -> leadership.isLeader(log.topicPartition()))
                        .ifPresent(log -> deletions.add(deleteStateOfTopics(log, topicIds)));
            }
            return CompletableFuture.allOf(deletions.toArray(CompletableFuture[]::new))
                    .thenApply(done -> deletions.stream().mapToInt(CompletableFuture::join).sum());
        });
    }

    /** {@link #deleteStateOfTopics(Set)} in one partition of the topic, led here. */
    private CompletableFuture<Integer> deleteStateOfTopics(PartitionLog log, Set<UUID> topicIds) {
        Loaded partition = load(log);
        List<Written> tombstones = new ArrayList<>();
        partition.states().keySet().stream()
                .filter(key -> topicIds.contains(key.topicId()))
                .forEach(key -> tombstones.add(new Written(key, null)));
        if (tombstones.isEmpty()) {
            return CompletableFuture.completedFuture(0);
        }
        tombstones.forEach(tombstone -> partition.forget(tombstone.key()));
        return append(partition, log, tombstones).thenApply(appended -> {
            if (appended.error() != Errors.NONE) {
                LOG.warn("Could not write the tombstones of the deleted topics' share state in {}: {}",
                        log.topicPartition(), appended.cause());
                return 0;
            }
            return tombstones.size();
        });
    }

    /**
     * Runs {@code work} on the coordinator's thread; a {@link LogException} it throws is its answer, turned into the
     * result type by {@code failed} with Kafka's message: a malformed key (INVALID_REQUEST) with the message the check
     * gave, an operation that could not run (NOT_COORDINATOR and the like) "Unable to {@code operation} share group
     * state: …". Work the stop keeps from running, or whose write it cuts short, is answered COORDINATOR_NOT_AVAILABLE
     * (what a share-partition leader answers its client for any coordinator error), "Share coordinator is not
     * available." as Kafka's inactive coordinator, never left unanswered or thrown at the caller.
     */
    private <T> CompletableFuture<T> onThread(String operation, BiFunction<Errors, String, T> failed,
                                              Supplier<CompletableFuture<T>> work) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        Runnable stopped = () -> answer.complete(
                failed.apply(Errors.COORDINATOR_NOT_AVAILABLE, ShareStateMessages.STOPPED));
        unanswered.put(answer, stopped);
        answer.whenComplete((value, failure) -> unanswered.remove(answer));
        try {
            thread.execute(() -> {
                try {
                    work.get().whenComplete((value, failure) -> {
                        if (failure == null) {
                            answer.complete(value);
                        } else if (rejected(failure)) { // the write's outcome came after the stop
                            stopped.run();
                        } else {
                            answer.completeExceptionally(failure);
                        }
                    });
                } catch (InvalidKey e) {
                    answer.complete(failed.apply(Errors.INVALID_REQUEST, e.getMessage()));
                } catch (LogException e) {
                    answer.complete(failed.apply(e.error(), ShareStateMessages.unable(operation, e.error())));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            stopped.run();
        }
        return answer;
    }

    private static boolean rejected(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof RejectedExecutionException;
    }

    /**
     * A share partition names a group, a topic id and a partition, as Kafka's share coordinator checks (with its
     * messages for the last two).
     */
    private static SharePartitionKey valid(SharePartitionKey key) {
        if (key.groupId() == null || key.groupId().isEmpty()) {
            throw new InvalidKey(null); // Kafka answers no partition at all for it; here INVALID_REQUEST
        }
        if (key.topicId().equals(new UUID(0, 0))) {
            throw new InvalidKey(ShareStateMessages.NULL_TOPIC_ID);
        }
        if (key.partition() < 0) {
            throw new InvalidKey(ShareStateMessages.NEGATIVE_PARTITION_ID);
        }
        return key;
    }

    /** A request naming no share partition: INVALID_REQUEST, with what is wrong with it. */
    private static final class InvalidKey extends RuntimeException {
        InvalidKey(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Whether the share partition's data partition exists in this node's view of the cluster, Kafka's last check of
     * a read, write, initialization or summary (its metadata image: else UNKNOWN_TOPIC_OR_PARTITION). Not for a
     * deletion: the state of a deleted topic's share partitions stays deletable, as in Kafka, whose own cleanup on
     * the topic's deletion ({@link #onTopicsDeleted}) may not have run yet (or ran on a partition's former leader).
     */
    private boolean dataPartitionExists(SharePartitionKey key) {
        return topics.known(key.topicId()).filter(topic -> key.partition() < topic.partitions()).isPresent();
    }

    /** The log of the key's partition of the topic, if this node leads it (else NOT_COORDINATOR). */
    private PartitionLog leaderLog(SharePartitionKey key) {
        TopicMetadata topic = topics.get(NAME).or(this::createdNow).orElseThrow(() ->
                new LogException(Errors.COORDINATOR_NOT_AVAILABLE, NAME + " does not exist yet"));
        int index = partitionFor(key, topic.partitions());
        return topics.partitionLog(topic, index)
                .filter(l -> leadership.isLeader(l.topicPartition()))
                .orElseThrow(() -> new LogException(Errors.NOT_COORDINATOR, "not the leader of " + NAME + "-" + index));
    }

    /** The partition of the topic in {@code log}, replayed now if this node has not yet under its leader epoch. */
    private Loaded load(PartitionLog log) {
        int index = log.topicPartition().partition();
        int epoch = leadership.leaderEpoch(log.topicPartition());
        Loaded known = loaded.get(index);
        if (known != null && known.leaderEpoch() == epoch) {
            return known;
        }
        Loaded replayed = replay(log, epoch);
        loaded.put(index, replayed);
        return replayed;
    }

    private Optional<TopicMetadata> createdNow() {
        if (!createsTopic) {
            return Optional.empty();
        }
        topics.autoCreate(NAME); // on this thread, off the event loops: it creates and fsyncs files
        return topics.get(NAME);
    }

    /** Appends one record to {@code log}, the partition's, found led by this node as the request began. */
    private CompletableFuture<Appended> append(Loaded partition, PartitionLog log, SharePartitionKey key,
                                             byte[] value) {
        return append(partition, log, List.of(new Written(key, value)));
    }

    /** One record of an append: a share partition's state, or its tombstone when {@code value} is null. */
    private record Written(SharePartitionKey key, byte[] value) {
    }

    /**
     * Appends the records as one batch to {@code log}, the partition's, found led by this node as the request began;
     * once it counts, each share partition's latest offset is its record's (or gone, with a tombstone).
     */
    private CompletableFuture<Appended> append(Loaded partition, PartitionLog log, List<Written> records) {
        long now = clock.wallClockMs();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now);
        records.forEach(record -> builder.append(now, ShareStateRecords.key(record.key()), record.value(), List.of()));
        ByteBuf batch = builder.build();
        CompletableFuture<Long> appended;
        try {
            appended = appender.append(log, batch);
        } catch (LogException e) {
            appended = CompletableFuture.failedFuture(e);
        } finally {
            batch.release();
        }
        int index = log.topicPartition().partition();
        return appended.handleAsync((firstOffset, failure) -> {
            if (failure != null) {
                // What is in memory may now be ahead of the log: read the log again at the next request.
                loaded.remove(index);
                return new Appended(CoordinatorWriteErrors.answerFor(failure),
                        Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR));
            }
            for (int i = 0; i < records.size(); i++) {
                SharePartitionKey key = records.get(i).key();
                if (records.get(i).value() == null) {
                    partition.latestOffsets().remove(key);
                } else {
                    partition.latestOffsets().merge(key, firstOffset + i, Math::max);
                }
            }
            maybePrune(partition, log);
            return Appended.DONE;
        }, this::continueOnThread);
    }

    /**
     * Runs an append's outcome on the coordinator's thread: at once when it is already there (a single node's append
     * counts as it returns; so, also, the work the stop lets finish), else queued on it (refused once it stops).
     */
    private void continueOnThread(Runnable continuation) {
        if (Thread.currentThread() == ownThread) {
            continuation.run();
        } else {
            thread.execute(continuation);
        }
    }

    /**
     * Every {@code share.coordinator.state.topic.prune.interval.ms}, deletes the records of a partition of the topic
     * below the latest record of each share partition it holds, as Kafka's share coordinator prunes the topic (whose
     * records are kept by no retention), so that a new leader's replay reads little more than the live states.
     */
    private void maybePrune(Loaded partition, PartitionLog log) {
        long now = clock.monotonicMs();
        long last = lastPrunes.computeIfAbsent(log.topicPartition().partition(), index -> now);
        if (now - last < pruneIntervalMs || !leadership.isLeader(log.topicPartition())) {
            return;
        }
        lastPrunes.put(log.topicPartition().partition(), now);
        long below = Math.min(log.highWatermark(), partition.latestOffsets().values().stream()
                .mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE));
        if (below > log.logStartOffset()) {
            try {
                log.deleteRecordsBefore(below);
            } catch (LogException | java.io.UncheckedIOException e) {
                LOG.warn("Cannot prune {} below {}: {}", log.topicPartition(), below, e.toString());
            }
        }
    }

    /** Every share partition's last state in one partition of the topic, read to its end. */
    private static Loaded replay(PartitionLog log, int epoch) {
        Loaded replayed = new Loaded(epoch);
        LogReplay.replay(log, (batch, record) -> applyReadable(log.topicPartition(), record, replayed));
        return replayed;
    }

    /** One unreadable record (a later version, a ShareUpdate) must not keep the partition's others from loading. */
    private static void applyReadable(TopicPartition partition, Record record, Loaded replayed) {
        try {
            ByteBuf key = record.key();
            SharePartitionKey shareKey = key == null ? null : ShareStateRecords.readKey(key);
            if (shareKey == null) {
                return;
            }
            ByteBuf value = record.value();
            if (value == null) {
                replayed.forget(shareKey);
            } else {
                replayed.apply(shareKey, ShareStateRecords.readValue(value));
                replayed.latestOffsets().put(shareKey, record.offset());
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.warn("Skipped the unreadable record at offset {} of {}: {}", record.offset(), partition, e.toString());
        }
    }

    /**
     * Lets the work already queued run, waiting up to {@value #STOP_TIMEOUT_S} s, so that its writes reach the log
     * (closed after this, see the broker's stop) and are answered; what later work is left is answered
     * COORDINATOR_NOT_AVAILABLE, as is any asked for from now on.
     */
    @Override
    public void close() {
        close(STOP_TIMEOUT_S);
    }

    /** {@link #close()}, waiting up to {@code waitSeconds} for the queued work. */
    void close(long waitSeconds) {
        thread.shutdown();
        try {
            if (thread.awaitTermination(waitSeconds, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("Share coordinator work still queued after {} s; answering it COORDINATOR_NOT_AVAILABLE",
                waitSeconds);
        thread.shutdownNow();
        List.copyOf(unanswered.values()).forEach(Runnable::run);
    }
}
