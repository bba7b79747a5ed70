package io.minibroker.broker.group;

import java.util.AbstractList;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
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
        if (known == null || !known.name.equals(name) || !holdsAll(known.partitions, partitions)) {
            add(topicId, name, known, partitions);
        }
    }

    /**
     * Whether {@code known} (distinct, never negative) holds every one of {@code partitions}; without a look-up each
     * when it is exactly 0 to its size - 1, as a topic that only heartbeats initialized is, and in constant time when
     * {@code partitions} are a heartbeat's {@link FirstPartitions} too.
     */
    private static boolean holdsAll(SortedSet<Integer> known, Collection<Integer> partitions) {
        boolean firstOnes = known.isEmpty() || known.last() == known.size() - 1;
        if (firstOnes && partitions instanceof FirstPartitions first) {
            return first.size() <= known.size();
        }
        for (int partition : partitions) {
            if (firstOnes ? partition < 0 || partition >= known.size() : !known.contains(partition)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The topic's partitions 0 to {@code count} - 1 have state now, besides those that had: what a share heartbeat
     * asks of each subscribed topic.
     */
    void initializeFirst(UUID topicId, String name, int count) {
        initialize(topicId, name, new FirstPartitions(count));
    }

    /**
     * Partitions 0 to {@code count} - 1, each made as it is read: a heartbeat's topic that has them all already (the
     * usual case) copies nothing, and {@link #holdsAll} knows it from the sizes alone.
     */
    static final class FirstPartitions extends AbstractList<Integer> implements RandomAccess {
        private final int count;

        FirstPartitions(int count) {
            this.count = count;
        }

        @Override
        public Integer get(int index) {
            return Objects.checkIndex(index, count);
        }

        @Override
        public int size() {
            return count;
        }
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
