package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * The classic groups this broker coordinates, by id, and which of them it coordinates now: a group belongs to the
 * leader of its partition of {@code __consumer_offsets} ({@link CoordinatedPartitions}; a single node coordinates
 * every group). The map is concurrent and read without any group's lock; a group's own fields are guarded by its
 * monitor. A group is forgotten by making it Dead under its lock, then removing it: whoever looked it up before
 * sees it Dead and looks again ({@link #live}).
 */
final class ClassicGroups {

    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    private final CoordinatedPartitions coordinated;
    /** The partition of the offsets topic a group id belongs to. */
    private final ToIntFunction<String> partitionFor;

    ClassicGroups(CoordinatedPartitions coordinated, ToIntFunction<String> partitionFor) {
        this.coordinated = coordinated;
        this.partitionFor = partitionFor;
    }

    CoordinatedPartitions coordinated() {
        return coordinated;
    }

    int partitionFor(String groupId) {
        return partitionFor.applyAsInt(groupId);
    }

    /**
     * NONE if this broker coordinates the group now; else NOT_COORDINATOR (another broker leads its partition) or
     * COORDINATOR_LOAD_IN_PROGRESS (this broker is still loading it), as Kafka's coordinator answers.
     */
    Errors coordinatorError(String groupId) {
        return coordinated.check(partitionFor(groupId));
    }

    Optional<ClassicGroup> find(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    /** The group, or null if there is none. */
    ClassicGroup get(String groupId) {
        return groups.get(groupId);
    }

    /** A snapshot of every group. */
    List<ClassicGroup> all() {
        return new ArrayList<>(groups.values());
    }

    /** Whether the group is still the one listed under its id: not deleted, expired or unloaded meanwhile. */
    boolean isCurrent(ClassicGroup group) {
        return groups.get(group.groupId) == group;
    }

    /** The group, created Empty if it does not exist yet (a first join, or a simple offset commit). */
    ClassicGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, ClassicGroup::new);
    }

    /**
     * The group, created if need be, and not one that offset expiry or DeleteGroups has just deleted: that one is
     * replaced by a fresh group. One Dead and still listed (the coordinator is closing) is returned as it is.
     */
    ClassicGroup live(String groupId) {
        ClassicGroup group = getOrCreate(groupId);
        while (true) {
            synchronized (group) {
                if (group.state() != GroupState.DEAD) {
                    return group;
                }
            }
            ClassicGroup listed = getOrCreate(groupId);
            if (listed == group) {
                return group;
            }
            group = listed;
        }
    }

    /** Lists a group loaded from the offsets topic in place of any earlier one of that id. */
    void restored(ClassicGroup group) {
        groups.put(group.groupId, group);
    }

    /** Makes the group Dead and forgets it; the caller holds its lock. */
    void remove(ClassicGroup group) {
        group.transitionTo(GroupState.DEAD);
        groups.remove(group.groupId, group);
    }
}
