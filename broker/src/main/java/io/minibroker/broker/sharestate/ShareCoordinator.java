package io.minibroker.broker.sharestate;

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
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Kafka's share coordinator: the share partitions' state in {@code __share_group_state}, served by the leader of the
 * partition a share partition's key ({@code groupId:topicId:partition}, the topic id in Kafka's text form) hashes to.
 * On its own thread: a partition of the topic is replayed into memory the first time it is asked for under a leader
 * epoch (so a node that becomes its leader reads what the previous leader wrote), and each write appends a
 * ShareSnapshot record through the replicated log, counting once the log says so (on a cluster, replicated to
 * {@code min.insync.replicas}); the records every share partition has superseded are pruned every
 * {@code share.coordinator.state.topic.prune.interval.ms}. A write or read from a share-partition leader older than
 * the last one seen is FENCED_LEADER_EPOCH, so a node that lost a partition's leadership cannot overwrite its new
 * leader's state.
 */
public final class ShareCoordinator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShareCoordinator.class);
    public static final String NAME = InternalTopics.SHARE_GROUP_STATE;

    /** A read's answer: NONE and the state (null when the share partition has none), or the error. */
    public record ReadResult(Errors error, ShareStateSnapshot snapshot, int stateEpoch) {
        static ReadResult failed(Errors error) {
            return new ReadResult(error, null, -1);
        }
    }

    /**
     * One partition of the topic as replayed under one leader epoch: each share partition's state, and the offset of
     * its latest record (below the least of which every record is superseded, so may be pruned).
     */
    private record Loaded(int leaderEpoch, Map<SharePartitionKey, Stored> states,
                          Map<SharePartitionKey, Long> latestOffsets) {
        Loaded(int leaderEpoch) {
            this(leaderEpoch, new HashMap<>(), new HashMap<>());
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
        this.thread = Executors.newSingleThreadExecutor(task -> new Thread(task, threadName));
    }

    /** Kafka's partition of a share partition in {@code __share_group_state}. */
    public static int partitionFor(SharePartitionKey key, int partitions) {
        return InternalTopics.partitionFor(key.groupId() + ":" + TopicIds.toText(key.topicId()) + ":"
                + key.partition(), partitions);
    }

    public CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch) {
        return onThread(ReadResult::failed, () -> {
            Loaded partition = load(leaderLog(valid(key)));
            Stored stored = partition.states().get(key);
            if (stored == null) {
                return CompletableFuture.completedFuture(new ReadResult(Errors.NONE, null, -1));
            }
            if (leaderEpoch == Persister.NO_LEADER_EPOCH) { // an administrator's look: it leads nothing, fences nothing
                return CompletableFuture.completedFuture(new ReadResult(Errors.NONE, stored.snapshot(),
                        stored.stateEpoch()));
            }
            if (leaderEpoch < stored.leaderEpoch()) {
                return CompletableFuture.completedFuture(ReadResult.failed(Errors.FENCED_LEADER_EPOCH));
            }
            // The reader leads the share partition now: fence the writes of its earlier leaders from here on.
            partition.states().put(key, new Stored(stored.snapshot(), stored.snapshotEpoch(), stored.stateEpoch(),
                    leaderEpoch, stored.createTimestamp()));
            return CompletableFuture.completedFuture(new ReadResult(Errors.NONE, stored.snapshot(),
                    stored.stateEpoch()));
        });
    }

    public CompletableFuture<Errors> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch) {
        return onThread(Function.identity(), () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            Stored previous = partition.states().get(key);
            boolean fromLeader = leaderEpoch != Persister.NO_LEADER_EPOCH;
            if (previous != null && fromLeader && leaderEpoch < previous.leaderEpoch()) {
                return CompletableFuture.completedFuture(Errors.FENCED_LEADER_EPOCH);
            }
            long now = clock.wallClockMs();
            // An administrator's write (no leader epoch) keeps the epoch that fences the leaders before the last.
            int epoch = fromLeader || previous == null ? leaderEpoch : previous.leaderEpoch();
            Stored next = previous == null ? new Stored(snapshot, 0, 0, epoch, now)
                    : new Stored(snapshot, previous.snapshotEpoch() + 1, previous.stateEpoch(), epoch,
                            previous.createTimestamp());
            CompletableFuture<Errors> written = append(partition, log, key, ShareStateRecords.key(key),
                    ShareStateRecords.value(next, now));
            partition.states().put(key, next);
            return written;
        });
    }

    /** Forgets a share partition's state (DeleteShareGroupState): a tombstone. */
    public CompletableFuture<Errors> delete(SharePartitionKey key) {
        return onThread(Function.identity(), () -> {
            PartitionLog log = leaderLog(valid(key));
            Loaded partition = load(log);
            if (partition.states().remove(key) == null) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            return append(partition, log, key, ShareStateRecords.key(key), null);
        });
    }

    /**
     * Runs {@code work} on the coordinator's thread; a {@link LogException} it throws (NOT_COORDINATOR and the like)
     * is its answer, turned into the result type by {@code failed}.
     */
    private <T> CompletableFuture<T> onThread(Function<Errors, T> failed,
                                              Supplier<CompletableFuture<T>> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.get();
            } catch (LogException e) {
                return CompletableFuture.completedFuture(failed.apply(e.error()));
            }
        }, thread).thenCompose(Function.identity());
    }

    /** A share partition names a group, a topic id and a partition, as Kafka's share coordinator checks. */
    private static SharePartitionKey valid(SharePartitionKey key) {
        if (key.groupId() == null || key.groupId().isEmpty() || key.topicId().equals(new UUID(0, 0))
                || key.partition() < 0) {
            throw new LogException(Errors.INVALID_REQUEST, "no share partition " + key);
        }
        return key;
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
    private CompletableFuture<Errors> append(Loaded partition, PartitionLog log, SharePartitionKey key,
                                             byte[] recordKey, byte[] value) {
        long now = clock.wallClockMs();
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now)
                .append(now, recordKey, value, List.of()).build();
        CompletableFuture<Long> appended;
        try {
            appended = appender.append(log, batch);
        } catch (LogException e) {
            appended = CompletableFuture.failedFuture(e);
        } finally {
            batch.release();
        }
        int index = log.topicPartition().partition();
        return appended.handleAsync((offset, failure) -> {
            if (failure != null) {
                // What is in memory may now be ahead of the log: read the log again at the next request.
                loaded.remove(index);
                return CoordinatorWriteErrors.answerFor(failure);
            }
            if (value == null) {
                partition.latestOffsets().remove(key);
            } else {
                partition.latestOffsets().merge(key, offset, Math::max);
            }
            maybePrune(partition, log);
            return Errors.NONE;
        }, thread);
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
                replayed.states().remove(shareKey);
                replayed.latestOffsets().remove(shareKey);
            } else {
                replayed.states().put(shareKey, ShareStateRecords.readValue(value));
                replayed.latestOffsets().put(shareKey, record.offset());
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.warn("Skipped the unreadable record at offset {} of {}: {}", record.offset(), partition, e.toString());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
