package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer-protocol groups this broker coordinates, by id: a group id names one group, classic
 * ({@link ClassicGroups}) or consumer, never both. Concurrent, read without a group's lock; a group is forgotten by
 * marking it dead under its lock and then removing it, as classic groups are.
 */
final class ConsumerGroups {

    private final Map<String, ConsumerGroup> groups = new ConcurrentHashMap<>();

    /** The group, or null if there is none. */
    ConsumerGroup get(String groupId) {
        return groups.get(groupId);
    }

    ConsumerGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, ConsumerGroup::new);
    }

    List<ConsumerGroup> all() {
        return new ArrayList<>(groups.values());
    }

    /** Lists a group loaded from the offsets topic in place of any earlier one of that id. */
    void restored(ConsumerGroup group) {
        groups.put(group.groupId, group);
    }

    /** Marks the group dead and forgets it; the caller holds its lock. */
    void remove(ConsumerGroup group) {
        group.markDead();
        groups.remove(group.groupId, group);
    }
}
