package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.share.ShareStateInitialization;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;

/**
 * A share group's partitions on their way to initialized in record 15 ({@link ShareGroupStatePartitions}), as Kafka's
 * group coordinator takes them there before they may be assigned: a heartbeat lists the subscribed partitions with no
 * state as initializing (written with its other records) and, once answered, has the delivery side initialize them
 * ({@link ShareStateInitialization}: InitializeShareGroupState, the group epoch as state epoch; Kafka's
 * persisterInitialize); once that counts they are written as initialized, for the next heartbeat to assign (Kafka's
 * initializedAssignmentPending). A failed initialization takes them out of initializing, and a later heartbeat asks
 * again, as it does for one unanswered after {@code group.share.initialize.retry.interval.ms}. AlterShareGroupOffsets'
 * partitions go the same way, initialized once their resets count.
 */
final class ShareGroupStateInitializer {

    private static final Logger LOG = LoggerFactory.getLogger(ShareGroupStateInitializer.class);

    private final ShareGroups groups;
    private final CoordinatorThread thread;
    private final TopicRegistry topics;
    private final BrokerClock clock;
    /**
     * group.share.initialize.retry.interval.ms, at least offsets.commit.timeout.ms as in Kafka's
     * GroupCoordinatorConfig: how long a partition may stay initializing before a heartbeat asks for it again.
     */
    private final long initializeRetryMs;
    /** The delivery side's, known once the broker has made both; none for the membership side alone. */
    private volatile ShareStateInitialization stateInitialization = ShareStateInitialization.NONE;

    ShareGroupStateInitializer(BrokerConfig config, ShareGroups groups, CoordinatorThread thread, TopicRegistry topics,
                               BrokerClock clock) {
        this.groups = groups;
        this.thread = thread;
        this.topics = topics;
        this.clock = clock;
        this.initializeRetryMs = Math.max(config.get(BrokerConfig.GROUP_SHARE_INITIALIZE_RETRY_INTERVAL_MS),
                config.get(BrokerConfig.OFFSETS_COMMIT_TIMEOUT_MS));
    }

    /** How a heartbeat initializes the share partitions' state before they are assigned. */
    void initializeStateWith(ShareStateInitialization initialization) {
        this.stateInitialization = initialization;
    }

    /**
     * The subscribed partitions with no state, nor an initialization asked for within the retry interval, are
     * listed as initializing (Kafka's maybeCreateInitializeShareGroupStateRequest, whose record goes last in the
     * heartbeat's batch); topics deleted since are dropped from record 15. What is to be initialized, by topic id;
     * the caller holds the group's lock.
     */
    Map<UUID, Set<Integer>> startInitializing(ShareGroup group) {
        if (group.statePartitions != null) {
            group.statePartitions.retainExisting(topicId -> topics.known(topicId).isPresent());
        }
        if (group.subscribedPartitions.isEmpty()) {
            return Map.of();
        }
        long now = clock.monotonicMs();
        // No record 15 is made before there is something to initialize, as in Kafka.
        ShareGroupStatePartitions state = group.statePartitions != null ? group.statePartitions
                : new ShareGroupStatePartitions();
        Map<UUID, ShareGroupStatePartitions.Topic> needed = state.toInitialize(group.subscribedPartitions,
                topicId -> topics.known(topicId).map(TopicMetadata::name), now, initializeRetryMs);
        if (needed.isEmpty()) {
            return Map.of();
        }
        group.statePartitions = state;
        Map<UUID, Set<Integer>> asked = new LinkedHashMap<>();
        needed.forEach((topicId, topic) -> {
            state.startInitializing(topicId, topic.name(), topic.partitions(), now);
            asked.put(topicId, topic.partitions());
        });
        return asked;
    }

    /**
     * AlterShareGroupOffsets' partitions of topics known here are listed as initializing (Kafka's
     * addInitializingTopicsRecords): assignable only once their reset counts. Those listed, by topic id; the caller
     * holds the group's lock.
     */
    Map<UUID, Set<Integer>> startInitializing(ShareGroup group, Map<UUID, Set<Integer>> partitions) {
        long now = clock.monotonicMs();
        Map<UUID, Set<Integer>> listed = new LinkedHashMap<>();
        partitions.forEach((topicId, numbers) -> topics.known(topicId).ifPresent(topic -> {
            group.statePartitions().startInitializing(topicId, topic.name(), numbers, now);
            listed.put(topicId, numbers);
        }));
        return listed;
    }

    /**
     * After the heartbeat that listed them is written: the delivery side initializes the partitions' state at the
     * state epoch given, and once that counts they are initialized; if it fails, they leave initializing.
     */
    void initialize(ShareGroup group, Map<UUID, Set<Integer>> partitions, int stateEpoch) {
        whenStateCounts(group, partitions, stateInitialization.initializeState(group.groupId, partitions, stateEpoch),
                true);
    }

    /**
     * Once the share coordinator holds the partitions' state ({@code state}: a heartbeat's InitializeShareGroupState,
     * Kafka's persisterInitialize, or AlterShareGroupOffsets' resets), on the coordinator's thread, those still
     * initializing are recorded as initialized (not a topic forgotten or deleted meanwhile) and record 15 written.
     * If it failed they leave initializing when {@code uninitializeOnFailure} (Kafka's uninitializeShareGroupState),
     * else stay there for a heartbeat to ask again after the retry interval. Completes, once record 15's write is
     * done (its failure logged), or with the state's failure.
     */
    CompletableFuture<Void> whenStateCounts(ShareGroup group, Map<UUID, Set<Integer>> partitions,
                                            CompletionStage<?> state, boolean uninitializeOnFailure) {
        CompletableFuture<Void> recorded = new CompletableFuture<>();
        state.whenComplete((done, failure) -> thread.run(() -> {
            CompletableFuture<Long> written = CompletableFuture.completedFuture(-1L);
            synchronized (group) {
                if (!group.isDead() && group.statePartitions != null) { // else deleted or unloaded meanwhile
                    if (failure == null) {
                        group.assignmentPending |= group.statePartitions.initializeStillInitializing(partitions);
                    } else {
                        LOG.warn("Cannot initialize the share state of group {}", group.groupId, failure);
                        if (uninitializeOnFailure) {
                            notInitializing(group, partitions);
                        }
                    }
                    written = groups.write(group);
                }
            }
            written.whenComplete((offset, writeFailure) -> {
                if (writeFailure != null) {
                    LOG.warn("Cannot write the share state partitions of group {}", group.groupId, writeFailure);
                }
                if (failure != null) {
                    recorded.completeExceptionally(failure);
                } else {
                    recorded.complete(null);
                }
            });
        }));
        return recorded;
    }

    /** The partitions leave initializing (Kafka's uninitializeShareGroupState); takes the group's lock. */
    void notInitializing(ShareGroup group, Map<UUID, Set<Integer>> partitions) {
        synchronized (group) {
            if (group.statePartitions != null) {
                partitions.forEach(group.statePartitions::withoutInitializing);
            }
        }
    }

    /**
     * Topics were deleted: each share group coordinated here whose record 15 lists one of them has it written again
     * without them, as Kafka's GroupMetadataManager.maybeCleanupShareGroupState (the share coordinator deletes their
     * state itself). On the coordinator's thread; completes, once the records count, with how many groups were
     * written (a write that fails is logged, not counted).
     */
    CompletableFuture<Integer> forgetDeletedTopics(Set<UUID> topicIds) {
        return thread.compose(() -> {
            List<CompletableFuture<Integer>> writes = new ArrayList<>();
            for (ShareGroup group : groups.all()) {
                if (groups.coordinatorError(group.groupId) != Errors.NONE) {
                    continue;
                }
                synchronized (group) {
                    if (group.isDead() || group.statePartitions == null
                            || !group.statePartitions.retainExisting(topicId -> !topicIds.contains(topicId))) {
                        continue;
                    }
                    writes.add(groups.write(group).handle((offset, failure) -> {
                        if (failure != null) {
                            LOG.warn("Cannot write the share state partitions of group {} without the deleted topics",
                                    group.groupId, failure);
                            return 0;
                        }
                        return 1;
                    }));
                }
            }
            return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
                    .thenApply(done -> writes.stream().mapToInt(CompletableFuture::join).sum());
        });
    }

    /**
     * {@link #forgetDeletedTopics} for a caller that does not wait for it (a topic's deletion): a failure is logged,
     * and once the broker is stopping nothing is queued, the groups staying as they would had it stopped a moment
     * before the deletion (a heartbeat drops the topics then).
     */
    void onTopicsDeleted(Set<UUID> topicIds) {
        try {
            forgetDeletedTopics(topicIds).whenComplete((written, failure) -> {
                if (failure != null) {
                    LOG.error("Could not remove the deleted topics {} from the share groups", topicIds, failure);
                }
            });
        } catch (RejectedExecutionException stopping) {
            LOG.info("Not removing the deleted topics {} from the share groups: the group coordinator is stopping",
                    topicIds);
        }
    }

    /** A group replayed from the offsets topic: its initializing topics count from now, as Kafka's replay stamps them. */
    void replayed(ShareGroup group) {
        if (group.statePartitions != null) {
            group.statePartitions.replayedAt(clock.monotonicMs());
        }
    }
}
