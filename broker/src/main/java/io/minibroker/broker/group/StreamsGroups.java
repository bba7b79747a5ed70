package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams groups this broker coordinates, by id. A group id names one group: an id a classic, consumer or share
 * group holds is not a streams group's, and those protocols refuse an id a streams group holds. Concurrent, read
 * without a group's lock; a group is forgotten by marking it dead under its lock and then removing it, as the other
 * groups are.
 */
final class StreamsGroups {

    private final Map<String, StreamsGroup> groups = new ConcurrentHashMap<>();

    /** The streams group of that id, or null if there is none. */
    StreamsGroup get(String groupId) {
        return groups.get(groupId);
    }

    StreamsGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, StreamsGroup::new);
    }

    List<StreamsGroup> all() {
        return new ArrayList<>(groups.values());
    }

    /** Marks the group dead and forgets it; the caller holds its lock. */
    void forget(StreamsGroup group) {
        group.markDead();
        groups.remove(group.groupId, group);
    }

    /** Forgets a group a refused first join made: it has no member and no topology. */
    void forgetIfUnused(StreamsGroup group) {
        synchronized (group) {
            if (!group.isDead() && group.members.isEmpty() && group.topology == null) {
                forget(group);
            }
        }
    }
}
