package io.minibroker.broker.group;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which share partitions a share group has state for (Kafka's ShareGroupStatePartitionMetadata, the share group's
 * record type 15 in {@code __consumer_offsets} since Kafka 4.1): topics whose partitions' state is being
 * initialized, topics whose partitions' state is initialized, and topics whose state is being deleted, each by
 * topic id with its name. As Kafka's group coordinator, a heartbeat lists the subscribed partitions not initialized
 * yet as initializing, the share coordinator is asked to initialize them (InitializeShareGroupState), and they move
 * to initialized when it answers, or leave initializing if it fails; only initialized partitions are assigned to
 * members. A partition initializing for longer than {@code group.share.initialize.retry.interval.ms} is asked for
 * again by the next heartbeat. AlterShareGroupOffsets lists its partitions as initializing too, initialized once
 * their resets count; DeleteShareGroupOffsets removes topics. The deleting set is kept as read, so that a record read
 * back is written again unchanged. Guarded by the group's monitor.
 */
final class ShareGroupStatePartitions {

    /** A topic's name and the partitions of it concerned. */
    record Topic(String name, SortedSet<Integer> partitions) {
    }

    final Map<UUID, Topic> initializing = new TreeMap<>();
    final Map<UUID, Topic> initialized = new TreeMap<>();
    /** The topics whose state is being deleted, by id: their names. */
    final Map<UUID, String> deleting = new TreeMap<>();
    /**
     * When each initializing topic was last asked for (broker clock, ms), as Kafka keeps it beside the record, not
     * in it: a topic read back from the log counts from its replay.
     */
    private final Map<UUID, Long> initializingSince = new HashMap<>();

    /**
     * The partitions of the subscribed topics (by id) that need initializing now, as Kafka's
     * subscribedTopicsChangeMap finds them: those neither initialized nor initializing since less than
     * {@code retryMs}; a topic whose partitions are all covered, or whose name {@code names} no longer knows, is left
     * out. Nothing is allocated, nor any name looked up, when nothing is needed (the usual heartbeat).
     */
    Map<UUID, Topic> toInitialize(Map<UUID, Integer> subscribed, Function<UUID, Optional<String>> names, long nowMs,
                                  long retryMs) {
        Map<UUID, Topic> needed = null;
        for (Map.Entry<UUID, Integer> entry : subscribed.entrySet()) {
            UUID topicId = entry.getKey();
            int count = entry.getValue();
            Topic done = initialized.get(topicId);
            Topic pending = initializing.get(topicId);
            Topic askedRecently = pending != null && nowMs - initializingSince.getOrDefault(topicId, nowMs) < retryMs
                    ? pending : null;
            SortedSet<Integer> missing = null;
            for (int partition = 0; partition < count; partition++) {
                if (!holds(done, partition) && !holds(askedRecently, partition)) {
                    if (missing == null) {
                        missing = new TreeSet<>();
                    }
                    missing.add(partition);
                }
            }
            if (missing == null) {
                continue;
            }
            Optional<String> name = names.apply(topicId);
            if (name.isEmpty()) {
                continue;
            }
            if (needed == null) {
                needed = new LinkedHashMap<>();
            }
            needed.put(topicId, new Topic(name.get(), missing));
        }
        return needed == null ? Map.of() : needed;
    }

    private static boolean holds(Topic topic, int partition) {
        return topic != null && topic.partitions.contains(partition);
    }

    /**
     * These partitions are being initialized from now on (Kafka's addInitializingTopicsRecords); a topic being
     * deleted is no longer.
     */
    void startInitializing(UUID topicId, String name, Collection<Integer> partitions, long nowMs) {
        Topic known = initializing.get(topicId);
        SortedSet<Integer> all = new TreeSet<>(partitions);
        if (known != null) {
            all.addAll(known.partitions);
        }
        initializing.put(topicId, new Topic(name, all));
        initializingSince.put(topicId, nowMs);
        deleting.remove(topicId);
    }

    /**
     * These partitions of the topic have state now, besides those that had (the share coordinator's answer to a
     * heartbeat's initialization, or AlterShareGroupOffsets): they leave initializing, as in Kafka's
     * initializeShareGroupState.
     */
    void initialize(UUID topicId, String name, Collection<Integer> partitions) {
        withoutInitializing(topicId, partitions);
        Topic known = initialized.get(topicId);
        if (known != null && known.name.equals(name) && known.partitions.containsAll(partitions)) {
            return;
        }
        SortedSet<Integer> all = new TreeSet<>(partitions);
        if (known != null) {
            all.addAll(known.partitions);
        }
        initialized.put(topicId, new Topic(name, all));
    }

    /**
     * The share coordinator holds these partitions' state now: those still initializing are initialized, not those
     * whose topic was forgotten (DeleteShareGroupOffsets) or deleted, nor asked for by an initialization still under
     * way, meanwhile. Whether any was.
     */
    boolean initializeStillInitializing(Map<UUID, Set<Integer>> partitions) {
        boolean any = false;
        for (Map.Entry<UUID, Set<Integer>> entry : partitions.entrySet()) {
            Topic pending = initializing.get(entry.getKey());
            if (pending == null) {
                continue;
            }
            SortedSet<Integer> wanted = new TreeSet<>(entry.getValue());
            wanted.retainAll(pending.partitions);
            if (!wanted.isEmpty()) {
                initialize(entry.getKey(), pending.name, wanted);
                any = true;
            }
        }
        return any;
    }

    /** Their initialization failed: the partitions leave initializing (Kafka's uninitializeShareGroupState). */
    void withoutInitializing(UUID topicId, Collection<Integer> partitions) {
        Topic pending = initializing.get(topicId);
        if (pending == null) {
            return;
        }
        SortedSet<Integer> left = new TreeSet<>(pending.partitions);
        left.removeAll(partitions);
        if (left.isEmpty()) {
            initializing.remove(topicId);
            initializingSince.remove(topicId);
        } else {
            initializing.put(topicId, new Topic(pending.name, left));
        }
    }

    /** The initialized partitions of {@code topicId}: those a member may be assigned; empty if none. */
    SortedSet<Integer> initializedOf(UUID topicId) {
        Topic topic = initialized.get(topicId);
        return topic == null ? Collections.emptySortedSet() : topic.partitions;
    }

    /** A topic read back from the log as initializing counts from now, as Kafka's replay stamps it. */
    void replayedAt(long nowMs) {
        initializing.keySet().forEach(topicId -> initializingSince.put(topicId, nowMs));
    }

    /**
     * DeleteGroups is deleting the group's state (Kafka's shareGroupBuildPartitionDeleteRequest): its initializing and
     * initialized topics move to deleting, beside those already there; a deleting topic {@code names} no longer knows
     * leaves the record, as Kafka's drops one its metadata image lacks.
     */
    void startDeletingAll(Function<UUID, Optional<String>> names) {
        deleting.keySet().removeIf(topicId -> names.apply(topicId).isEmpty());
        initializing.forEach((topicId, topic) -> deleting.put(topicId, topic.name));
        initialized.forEach((topicId, topic) -> deleting.put(topicId, topic.name));
        initializing.clear();
        initializingSince.clear();
        initialized.clear();
    }

    /**
     * DeleteShareGroupOffsets is deleting these topics' state (Kafka's sharePartitionsEligibleForOffsetDeletion): an
     * initialized topic moves to deleting, its initialized partitions to be deleted; a topic already deleting, every
     * partition of it ({@code partitionCounts}); a topic only initializing, or unknown here, has no offset information
     * to delete and is left as it is. The partitions to delete, by topic id.
     */
    Map<UUID, Set<Integer>> startDeleting(Set<UUID> topicIds, Function<UUID, Optional<Integer>> partitionCounts) {
        Map<UUID, Set<Integer>> eligible = new LinkedHashMap<>();
        for (UUID topicId : topicIds) {
            Topic done = initialized.remove(topicId);
            if (done != null) {
                eligible.put(topicId, done.partitions);
                deleting.put(topicId, done.name);
            } else if (deleting.containsKey(topicId)) {
                partitionCounts.apply(topicId).ifPresent(count -> {
                    SortedSet<Integer> all = new TreeSet<>();
                    for (int partition = 0; partition < count; partition++) {
                        all.add(partition);
                    }
                    eligible.put(topicId, all);
                });
            }
        }
        return eligible;
    }

    /** The deleting topics' state is gone (Kafka's completeDeleteShareGroupOffsets). */
    void deleted(Set<UUID> topicIds) {
        deleting.keySet().removeAll(topicIds);
    }

    /**
     * Forgets the topics that no longer exist wherever they are listed: on a topic's deletion (Kafka's
     * maybeCleanupShareGroupState), and as a heartbeat finds them (a deletion missed here). Whether any was listed.
     */
    boolean retainExisting(Predicate<UUID> exists) {
        initializingSince.keySet().removeIf(exists.negate());
        boolean listed = initializing.keySet().removeIf(exists.negate());
        listed |= initialized.keySet().removeIf(exists.negate());
        return deleting.keySet().removeIf(exists.negate()) || listed;
    }
}
