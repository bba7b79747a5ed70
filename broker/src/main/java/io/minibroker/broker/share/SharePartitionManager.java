package io.minibroker.broker.share;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.ForwardingPartitionLeadership;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * The share partitions of this broker (Kafka's SharePartitionManager): each loaded at its first fetch under a leader
 * epoch, from the state the share coordinator holds or at the position {@code share.auto.offset.reset} gives;
 * acknowledgements and releases applied and persisted; the "ShareFetch" purgatory of parked fetches, woken by appends to a partition and by records made
 * available again (released, or their locks expired), and the "ShareLockExpiry" purgatory whose timeouts release
 * expired locks on the broker clock even when no request comes.
 */
public final class SharePartitionManager implements ShareStateDeletion, ShareStateInitialization, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SharePartitionManager.class);

    private final Clock clock;
    private final LongSupplier wallClockMs;
    private final ShareGroupConfigs configs;
    private final Persister persister;
    /** The leader epoch of each partition this node leads: a share partition's state is loaded under one. */
    private final ToIntFunction<TopicPartition> leaderEpochs;
    private final Map<SharePartitionKey, SharePartition> partitions = new ConcurrentHashMap<>();
    /**
     * Share partitions whose state is being read from the share coordinator, each with its load's outcome: NONE, or
     * the error a failed load answers to the fetches that waited for it. Those are told through their own callbacks
     * before they are woken, and keep the error (Kafka's ShareFetch.addErroneous), so a fetch that saw the load fail
     * answers with it on whatever thread and however late it is answered; the share partition is dropped, as Kafka's
     * SharePartitionManager drops it, and a fetch after that loads it again.
     */
    private final Map<SharePartitionKey, Load> loads = new ConcurrentHashMap<>();

    /** A load's outcome (NONE, or its error), and who is told of its failure (by identity). */
    private static final class Load extends CompletableFuture<Errors> {
        final Set<Consumer<Errors>> told = ConcurrentHashMap.newKeySet();
    }

    /** Share partitions not loaded here whose state AlterShareGroupOffsets initialized here (listed by Describe). */
    private final Set<SharePartitionKey> altered = ConcurrentHashMap.newKeySet();
    private final Purgatory<DelayedShareFetch> fetchPurgatory;
    private final Purgatory<LockExpiry> lockPurgatory;
    /**
     * Set at the broker's stop, when the share coordinator stops too: the releases of the connections closed then
     * are not written (see {@link #changed}) and an acknowledgement still in flight is answered without a write.
     */
    private volatile boolean closed;

    /**
     * @param clock       the broker's monotonic clock: locks, sessions, the purgatories
     * @param wallClockMs the broker's wall clock, which {@code share.auto.offset.reset=by_duration:} compares
     *                    record timestamps with
     */
    public SharePartitionManager(Clock clock, LongSupplier wallClockMs, ShareGroupConfigs configs,
                                 Persister persister, ToIntFunction<TopicPartition> leaderEpochs, int purgeInterval) {
        this.clock = clock;
        this.wallClockMs = wallClockMs;
        this.configs = configs;
        this.persister = persister;
        this.leaderEpochs = leaderEpochs;
        this.fetchPurgatory = Purgatory.builder("ShareFetch").clock(clock).purgeInterval(purgeInterval).build();
        this.lockPurgatory = Purgatory.builder("ShareLockExpiry").clock(clock).purgeInterval(purgeInterval).build();
    }

    public Purgatory<DelayedShareFetch> fetchPurgatory() {
        return fetchPurgatory;
    }

    public ShareGroupSettings settings(String groupId) {
        return configs.settings(groupId);
    }

    /**
     * The share partition of {@code key} if it is in memory, loaded under the partition's current leader epoch, else
     * null: nothing is loaded for the caller (an acknowledgement, which Kafka's SharePartitionManager applies only to
     * a share partition in its cache).
     */
    public SharePartition loaded(SharePartitionKey key, PartitionLog partitionLog) {
        return loaded(key, leaderEpochs.applyAsInt(partitionLog.topicPartition()));
    }

    /** The share partition of {@code key} in memory loaded under {@code epoch}, with the group's settings; or null. */
    private SharePartition loaded(SharePartitionKey key, int epoch) {
        SharePartition partition = partitions.get(key);
        if (partition == null || partition.leaderEpoch() != epoch) {
            return null;
        }
        partition.updateSettings(configs.settings(key.groupId()));
        return partition;
    }

    /** Whether the state of {@code key} is being read from the share coordinator. */
    public boolean isLoading(SharePartitionKey key) {
        return loads.containsKey(key);
    }

    /**
     * The share partition of {@code key} over {@code log}, or null while its state is being read from the share
     * coordinator: that starts at its first fetch under the partition's current leader epoch, as Kafka's
     * SharePartition initializes, and parked fetches are woken when it is done, on {@code eventLoop} (the event loop
     * of the request that asked, {@code RequestContext.eventLoop()}): not on the thread that answered the read, on one
     * node the share coordinator's, whose every other state read and write would wait behind the fetches' log reads
     * and answers. If the load fails, {@code onLoadFailure} is told its error before any fetch is woken (at once when
     * it has just failed). A share partition this node led under an earlier epoch is dropped first: another leader
     * may have changed its state since.
     */
    public SharePartition partition(SharePartitionKey key, PartitionLog partitionLog, Executor eventLoop,
                                    Consumer<Errors> onLoadFailure) {
        int epoch = leaderEpochs.applyAsInt(partitionLog.topicPartition());
        SharePartition partition = loaded(key, epoch);
        if (partition != null) {
            return partition;
        }
        Load load = new Load();
        Load inFlight = loads.putIfAbsent(key, load);
        if (inFlight != null) {
            tellFailure(inFlight, onLoadFailure);
            return null;
        }
        partition = loaded(key, epoch); // a load may have ended between the two looks
        if (partition != null) {
            loads.remove(key, load);
            load.complete(Errors.NONE);
            return partition;
        }
        SharePartition stale = partitions.get(key);
        if (stale != null) {
            partitions.remove(key, stale);
        }
        tellFailure(load, onLoadFailure);
        load(key, partitionLog, configs.settings(key.groupId()), epoch, eventLoop, load);
        return null;
    }

    /**
     * Tells {@code onLoadFailure} of the load's failure, once however often it asks: a parked fetch asks at each of its
     * checks, and a callback each time would keep it (and its request) reachable until the load ends.
     */
    private static void tellFailure(Load load, Consumer<Errors> onLoadFailure) {
        if (!load.told.add(onLoadFailure)) {
            return;
        }
        load.thenAccept(error -> {
            if (error != Errors.NONE) {
                onLoadFailure.accept(error);
            }
        });
    }

    private void load(SharePartitionKey key, PartitionLog partitionLog, ShareGroupSettings settings, int epoch,
                      Executor eventLoop, CompletableFuture<Errors> load) {
        persister.read(key, epoch).whenCompleteAsync((state, failure) -> {
            if (failure != null) {
                // As Kafka's SharePartition fails its initialization (INVALID_REQUEST, a share partition never
                // initialized, is UNKNOWN_SERVER_ERROR): the fetches that waited for it keep the error and are woken
                // to answer it; a fetch from now on loads it again.
                log.warn("Cannot load the state of share partition {}: {}", key, failure.toString());
                loads.remove(key, load);
                load.complete(persisterError(Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR)));
                fetchPurgatory.checkAndComplete(key);
                return;
            }
            SharePartition loaded;
            if (state.snapshot() != null) {
                loaded = SharePartition.restored(key, clock, settings, state.snapshot());
            } else {
                // With no state yet, the share partition starts where share.auto.offset.reset says, as Kafka's
                // SharePartition decides once the coordinator has answered.
                OptionalLong start = settings.autoOffsetReset().startOffset(partitionLog, wallClockMs.getAsLong());
                if (start.isEmpty()) {
                    log.debug("No record of {} is recent enough for share partition {} ({}): not made yet",
                            partitionLog.topicPartition(), key, settings.autoOffsetReset());
                    loads.remove(key, load);
                    load.complete(Errors.OFFSET_NOT_AVAILABLE); // Kafka's OffsetNotAvailableException
                    fetchPurgatory.checkAndComplete(key);
                    return;
                }
                loaded = SharePartition.startingAt(key, clock, settings, start.getAsLong());
            }
            loaded.ledUnder(epoch, state.stateEpoch());
            partitions.put(key, loaded);
            altered.remove(key);
            loads.remove(key, load);
            load.complete(Errors.NONE);
            fetchPurgatory.checkAndComplete(key);
        }, orHereOnceStopped(eventLoop));
    }

    /**
     * {@code eventLoop}, or the calling thread once the loop refuses work (the broker stopping): a load's outcome
     * must still end the loading, and the purgatory's close answers the fetches parked on it.
     */
    private static Executor orHereOnceStopped(Executor eventLoop) {
        return task -> {
            try {
                eventLoop.execute(task);
            } catch (RejectedExecutionException e) {
                task.run();
            }
        };
    }

    /**
     * The state of {@code key} for an administrator (DescribeShareGroupOffsets): its summary at the share coordinator,
     * which every acknowledgement and alteration reaches before it is answered, as Kafka's group coordinator reads it
     * (ReadShareGroupStateSummary).
     */
    public CompletionStage<Persister.Summary> describe(SharePartitionKey key) {
        return persister.summary(key);
    }

    /** Every share partition of {@code groupId} known here, loaded or altered. */
    public List<SharePartitionKey> keysOf(String groupId) {
        List<SharePartitionKey> keys = new ArrayList<>();
        partitions.keySet().stream().filter(k -> k.groupId().equals(groupId)).forEach(keys::add);
        altered.stream().filter(k -> k.groupId().equals(groupId) && !keys.contains(k)).forEach(keys::add);
        return keys;
    }

    /** Records were acquired: their locks expire after the group's lock duration unless acknowledged first. */
    void locksTaken(SharePartition partition) {
        lockPurgatory.tryCompleteElseWatch(new LockExpiry(partition), List.of(partition.key()));
    }

    /**
     * Applies {@code memberId}'s acknowledgements to one share partition. The stage completes with the partition's
     * answer once the new state is durable (at once for a refusal: nothing changed).
     */
    public CompletionStage<AcknowledgeResult> acknowledge(SharePartition partition, String memberId,
                                                          List<Acknowledgement> acknowledgements) {
        if (closed) { // its state could not be made durable: nothing is applied, and the member may try again elsewhere
            return CompletableFuture.completedFuture(
                    AcknowledgeResult.withDefaultMessage(Errors.COORDINATOR_NOT_AVAILABLE));
        }
        AcknowledgeResult result;
        CompletionStage<Void> written;
        synchronized (partition) { // snapshots reach the persister in the order the partition took them
            result = partition.acknowledge(memberId, acknowledgements);
            if (result.error() != Errors.NONE) {
                return CompletableFuture.completedFuture(result);
            }
            written = persister.write(partition.key(), partition.snapshot(), partition.leaderEpoch(),
                    partition.stateEpoch());
            partition.moveStartOffset(); // after the snapshot, as Kafka moves it after the write
        }
        // Released records are there for parked fetches, and records finished with may move the start offset and
        // so make room in a full window (share.partition.max.record.locks): either way, as Kafka, they are checked.
        fetchPurgatory.checkAndComplete(partition.key());
        if (acknowledgements.stream().anyMatch(Acknowledgement::renewsAny)) {
            locksTaken(partition);
        }
        return written.handle((ok, failure) -> failure == null ? AcknowledgeResult.NONE
                : writeRefusal(partition, failure));
    }

    /**
     * A failed state write as Kafka's SharePartition answers it (its fetchPersisterError). A fenced write (another
     * leader since, or the state initialized again by AlterShareGroupOffsets) drops the share partition, as Kafka's
     * SharePartitionManager drops a fenced one: the next fetch here loads the state again. Kafka's message is the
     * share coordinator's: for a fenced epoch or an unknown partition that error's default message, which is the one
     * given here for every error the coordinator answers (the coordinator's own text does not reach the leader here).
     */
    private AcknowledgeResult writeRefusal(SharePartition partition, Throwable failure) {
        Errors written = dropIfFenced(partition, failure);
        return new AcknowledgeResult(persisterError(written), DefaultMessages.of(written));
    }

    /** A share coordinator's error as Kafka's SharePartition answers it to its client (its fetchPersisterError). */
    private static Errors persisterError(Errors error) {
        return switch (error) {
            case NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS ->
                    Errors.COORDINATOR_NOT_AVAILABLE;
            case GROUP_ID_NOT_FOUND, UNKNOWN_TOPIC_OR_PARTITION -> error;
            case FENCED_LEADER_EPOCH, FENCED_STATE_EPOCH -> Errors.NOT_LEADER_OR_FOLLOWER;
            default -> Errors.UNKNOWN_SERVER_ERROR;
        };
    }

    /** Drops the share partition if the write failed as fenced; the write's error. */
    private Errors dropIfFenced(SharePartition partition, Throwable failure) {
        Errors error = Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR);
        if (error == Errors.FENCED_LEADER_EPOCH || error == Errors.FENCED_STATE_EPOCH) {
            partitions.remove(partition.key(), partition);
        }
        return error;
    }

    /** A member's session ended: whatever it still holds in these partitions goes to the other members. */
    public void releaseAll(String groupId, String memberId, List<ShareSessionCache.TopicIdPartition> sessionPartitions) {
        for (ShareSessionCache.TopicIdPartition tp : sessionPartitions) {
            SharePartition partition = partitions.get(new SharePartitionKey(groupId, tp.topicId(), tp.partition()));
            if (partition != null) {
                changed(partition, partition.releaseAll(memberId));
            }
        }
    }

    /** Sessions ended without a final request (their connection closed): their members' records are released. */
    public void releaseSessions(List<ShareSessionCache.ShareSession> ended, ShareSessionCache sessions) {
        for (ShareSessionCache.ShareSession session : ended) {
            releaseAll(session.groupId(), session.memberId(), session.partitions());
        }
        ended.stream().map(ShareSessionCache.ShareSession::groupId).distinct()
                .forEach(groupId -> sessionEnded(groupId, sessions));
    }

    /**
     * A session of {@code groupId} ended (its records released): with none of the group's left here, its share
     * partitions are dropped from memory, as Kafka's SharePartitionManager drops them when its share group listener
     * hears the group is empty here (onGroupEmpty). Their state is the share coordinator's; a later fetch loads it
     * again, so what was deleted or altered elsewhere meanwhile (DeleteGroups, the offsets admin APIs through another
     * node) is what it finds. The look for sessions and the drop are one step under the session cache's lock, which
     * a session opens under before its first fetch looks a share partition up.
     */
    public void sessionEnded(String groupId, ShareSessionCache sessions) {
        sessions.dropIfNoSessions(groupId, () -> partitions.keySet().removeIf(key -> key.groupId().equals(groupId)));
    }

    /** New records in {@code partition} (an append, or the high watermark moving): parked share fetches may acquire. */
    public void onAppend(TopicPartition partition) {
        fetchPurgatory.checkAndComplete(partition);
    }

    /**
     * {@code leadership} as the produce and fetch paths see it, telling {@code manager} of each leader append and
     * each follower fetch too: that is where parked share fetches learn of new records (on a single node an append
     * makes them readable; in a cluster the high watermark passing them does, which only a follower's fetch moves).
     */
    public static PartitionLeadership wakingOnNewData(PartitionLeadership leadership, SharePartitionManager manager) {
        return new ForwardingPartitionLeadership(leadership) {
            @Override
            public void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                                        long logStartOffset) {
                super.onFollowerFetch(partition, replicaId, replicaEpoch, fetchOffset, logStartOffset);
                manager.onAppend(partition);
            }

            @Override
            public void onLeaderAppend(TopicPartition partition) {
                super.onLeaderAppend(partition);
                manager.onAppend(partition);
            }
        };
    }

    /**
     * Resets a share partition's start offset (AlterShareGroupOffsets), as Kafka's group coordinator does through
     * its persister's initializeState: the state is initialized at {@code offset} with nothing in flight, under
     * {@code stateEpoch}. A share partition loaded here goes on from there under the new state epoch once the share
     * coordinator has that: a reset it refused changes nothing here either. The caller has checked the group has no
     * members.
     */
    public CompletionStage<Void> reset(SharePartitionKey key, long offset, int stateEpoch) {
        if (closed) {
            return stopped();
        }
        return persister.initialize(key, stateEpoch, offset).thenRun(() -> {
            SharePartition partition = partitions.get(key);
            if (partition == null) {
                altered.add(key);
                return;
            }
            partition.resetTo(offset, stateEpoch);
        });
    }

    /**
     * A heartbeat's initialization of share partitions, before any member is assigned them (Kafka's
     * persisterInitialize): each state starts with no start offset (-1: its leader starts where
     * {@code share.auto.offset.reset} says at its first fetch) under {@code stateEpoch}, the group's epoch. A share
     * partition already loaded here (fetched outside the group) is fenced at its next write and loaded again. One
     * request per share coordinator, as Kafka's persister sends.
     */
    @Override
    public CompletionStage<Void> initializeState(String groupId, Map<UUID, Set<Integer>> statePartitions,
                                                 int stateEpoch) {
        if (closed) {
            return stopped();
        }
        return persister.initialize(groupId, statePartitions, stateEpoch, Persister.NO_START_OFFSET);
    }

    /** Forgets a share partition's state (DeleteShareGroupOffsets), here and at its share coordinator. */
    public CompletionStage<Void> forget(SharePartitionKey key) {
        if (closed) {
            return stopped();
        }
        partitions.remove(key);
        altered.remove(key);
        return persister.delete(key);
    }

    /** What a state change asked for once the stop has begun gets: the share coordinator is stopping. */
    private static <T> CompletionStage<T> stopped() {
        return CompletableFuture.failedFuture(new LogException(Errors.COORDINATOR_NOT_AVAILABLE, "stopping"));
    }

    /**
     * DeleteGroups of a share group: the state of the partitions its coordinator lists and of those known here goes,
     * here (so the group made again starts where {@code share.auto.offset.reset} says) and at the share coordinators.
     */
    @Override
    public CompletionStage<Void> deleteState(String groupId, Map<UUID, Set<Integer>> statePartitions) {
        Set<SharePartitionKey> keys = new LinkedHashSet<>(keysOf(groupId));
        statePartitions.forEach((topicId, numbers) -> numbers.forEach(partition ->
                keys.add(new SharePartitionKey(groupId, topicId, partition))));
        return CompletableFuture.allOf(keys.stream().map(key -> forget(key).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
    }

    /**
     * Persists a release and tells parked fetches. Not at a stop: the share coordinator is stopping, and, as at
     * Kafka's shutdown, the release is dropped rather than failed. Nothing is lost that a write would keep: the next
     * leader loads the last state written, in which records acquired since are available again.
     */
    private void changed(SharePartition partition, boolean releasedAny) {
        if (!releasedAny) {
            return;
        }
        synchronized (partition) {
            if (closed) {
                partition.moveStartOffset();
                return;
            }
            persister.write(partition.key(), partition.snapshot(), partition.leaderEpoch(),
                    partition.stateEpoch()).exceptionally(failure -> {
                if (!closed) { // else the stop cut the write short: dropped, as a release made after it is
                    Errors error = dropIfFenced(partition, failure);
                    if (error == Errors.UNKNOWN_SERVER_ERROR) {
                        log.warn("Cannot persist the state of {}", partition.key(), failure);
                    } else { // the coordinator's answer (a topic deleted meanwhile, a moved coordinator): no trace
                        log.warn("Cannot persist the state of {}: the share coordinator answered {}", partition.key(),
                                error);
                    }
                }
                return null;
            });
            partition.moveStartOffset(); // after the snapshot, as Kafka moves it after the write
        }
        fetchPurgatory.checkAndComplete(partition.key());
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        fetchPurgatory.close();
        lockPurgatory.close();
    }

    /** Fires when locks taken now would expire, releasing whatever of the partition's locks has expired by then. */
    final class LockExpiry extends DelayedOperation {
        private final SharePartition partition;

        LockExpiry(SharePartition partition) {
            super(partition.settings().recordLockDurationMs());
            this.partition = partition;
        }

        @Override
        public boolean tryComplete() {
            return false; // only the timeout ends it
        }

        @Override
        protected void onComplete() {
            boolean released = partition.releaseExpiredLocks();
            changed(partition, released);
            if (!released) {
                // A fetch or acknowledgement past the deadline may have released these locks first (SharePartition
                // expires locks inline), telling no parked fetch: they learn of the records here either way.
                fetchPurgatory.checkAndComplete(partition.key());
            }
        }

        @Override
        protected void onExpiration() {
            // onComplete did the work
        }
    }
}
