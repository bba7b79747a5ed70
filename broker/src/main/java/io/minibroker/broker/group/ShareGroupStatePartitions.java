package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Which share partitions a share group has state for (Kafka's ShareGroupStatePartitionMetadata, the share group's
 * record type 15 in {@code __consumer_offsets} since Kafka 4.1): topics whose partitions' state is being
 * initialized, topics whose partitions' state is initialized, and topics whose state is being deleted, each by
 * topic id with its name. Kafka's group coordinator asks its share coordinator to initialize a partition's state
 * (InitializeShareGroupState) when a member first subscribes to its topic or AlterShareGroupOffsets sets its start
 * offset, and to delete it for DeleteShareGroupOffsets, moving the topic between these sets around each call.
 * Here a topic goes straight to initialized, and leaves when its offsets are deleted: AlterShareGroupOffsets has the
 * delivery side initialize the partitions' state (InitializeShareGroupState, with the group's epoch as state epoch,
 * as Kafka), but a first subscription calls nothing, since a share partition's leader starts one with no state where
 * {@code share.auto.offset.reset} says, as Kafka's does with the state its initialization left (start offset -1).
 * The initializing and deleting sets are kept as read, so that a record read back is written again unchanged. Guarded by the group's monitor.
 */
final class ShareGroupStatePartitions {

    /** A topic's name and the partitions of it concerned. */
    record Topic(String name, SortedSet<Integer> partitions) {
    }

    final Map<UUID, Topic> initializing = new TreeMap<>();
    final Map<UUID, Topic> initialized = new TreeMap<>();
    /** The topics whose state is being deleted, by id: their names. */
    final Map<UUID, String> deleting = new TreeMap<>();

    /** These partitions of the topic have state now, besides those that had (AlterShareGroupOffsets). */
    void initialize(UUID topicId, String name, Collection<Integer> partitions) {
        initializing.remove(topicId);
        Topic known = initialized.get(topicId);
        if (known == null || !known.name.equals(name) || !known.partitions.containsAll(partitions)) {
            add(topicId, name, known, partitions);
        }
    }

    /**
     * The topic's partitions 0 to {@code count} - 1 have state now, besides those that had: what a share heartbeat
     * asks of each subscribed topic. When nothing changes (the usual case: the topic's partitions, already all
     * there), nothing is allocated.
     */
    void initializeFirst(UUID topicId, String name, int count) {
        initializing.remove(topicId);
        Topic known = initialized.get(topicId);
        if (known != null && known.name.equals(name) && holdsFirst(known.partitions, count)) {
            return;
        }
        List<Integer> partitions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            partitions.add(i);
        }
        add(topicId, name, known, partitions);
    }

    /** Whether {@code partitions} (distinct, never negative) include 0 to {@code count} - 1. */
    private static boolean holdsFirst(SortedSet<Integer> partitions, int count) {
        if (count == 0) {
            return true;
        }
        if (partitions.size() < count) {
            return false;
        }
        if (partitions.last() == partitions.size() - 1) {
            return true; // exactly 0 to size - 1, which holds 0 to count - 1
        }
        for (int i = 0; i < count; i++) {
            if (!partitions.contains(i)) {
                return false;
            }
        }
        return true;
    }

    private void add(UUID topicId, String name, Topic known, Collection<Integer> partitions) {
        SortedSet<Integer> all = new TreeSet<>(partitions);
        if (known != null) {
            all.addAll(known.partitions);
        }
        initialized.put(topicId, new Topic(name, all));
    }

    /** The topics' state is gone (their offsets deleted). */
    void forget(Set<UUID> topicIds) {
        initializing.keySet().removeAll(topicIds);
        initialized.keySet().removeAll(topicIds);
        deleting.keySet().removeAll(topicIds);
    }

    /** Forgets the topics that no longer exist (Kafka's maybeCleanupShareGroupState on a topic's deletion). */
    void retainExisting(Predicate<UUID> exists) {
        initializing.keySet().removeIf(exists.negate());
        initialized.keySet().removeIf(exists.negate());
        deleting.keySet().removeIf(exists.negate());
    }
}
