package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The share groups this broker coordinates, by id, and their writes to {@code __consumer_offsets}
 * ({@link ShareGroupRecords}): what the membership ({@link ShareGroupCoordinator}), the state initialization
 * ({@link ShareGroupStateInitializer}), DeleteGroups ({@link ShareGroupDeletion}) and the offsets admin APIs
 * ({@link ShareGroupOffsetsAdmin}) share. A group id names one group ({@link GroupTypes}). Concurrent, read without a group's lock; a group is forgotten by marking it dead under its lock and
 * then removing it, as the other groups are.
 */
final class ShareGroups {

    private final Map<String, ShareGroup> groups = new ConcurrentHashMap<>();
    private final ClassicGroups classicGroups;
    private final OffsetsTopic log;

    ShareGroups(ClassicGroups classicGroups, OffsetsTopic log) {
        this.classicGroups = classicGroups;
        this.log = log;
    }

    /** The share group of that id, or null if there is none. */
    ShareGroup get(String groupId) {
        return groups.get(groupId);
    }

    /** The share group of that id, an empty one made now if there is none. */
    ShareGroup getOrCreate(String groupId) {
        return groups.computeIfAbsent(groupId, ShareGroup::new);
    }

    List<ShareGroup> all() {
        return new ArrayList<>(groups.values());
    }

    /** Lists a group replayed from the offsets topic in place of any earlier one of that id. */
    void restored(ShareGroup group) {
        groups.put(group.groupId, group);
    }

    /**
     * NONE if this broker coordinates the group now, else NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS: share
     * groups live in the offsets topic's partitions as the classic groups do.
     */
    Errors coordinatorError(String groupId) {
        return classicGroups.coordinatorError(groupId);
    }

    /**
     * What puts a group back as its records last appended give it, when a write is refused at its append (the
     * membership's, which owns the members' timeouts).
     */
    @FunctionalInterface
    interface RollBack {
        void rollBack(ShareGroup group);
    }

    /** Set once, by the membership, before any write. */
    private RollBack rollBack = group -> {
    };

    void rollsBackWith(RollBack rollBack) {
        this.rollBack = rollBack;
    }

    /**
     * Writes what changed since the group's last write, as one batch; the caller holds its lock. Once appended, the
     * records are the group's written ones (Kafka's last written offset), whether or not they come to count; refused
     * at the append, the group is rolled back to them, as Kafka's coordinator runtime reverts a failed append.
     */
    CompletableFuture<Long> write(ShareGroup group) {
        Map<ByteBuffer, byte[]> now = ShareGroupRecords.snapshot(group);
        return log.appendOrRollBack(group.groupId, ConsumerGroupRecords.diff(group.written, now),
                () -> group.written = now, () -> rollBack.rollBack(group));
    }

    /**
     * Writes tombstones for every record of the group and forgets it (DeleteGroups' last step); the caller holds its
     * lock. A write refused at once leaves the group as it is.
     */
    CompletableFuture<Long> tombstone(ShareGroup group) {
        CompletableFuture<Long> written = log.writeChanges(group.groupId, group.written, Map.of());
        if (!written.isCompletedExceptionally()) {
            forget(group);
        }
        return written;
    }

    /** Forgets a group that has no members and nothing written: one made by a request that failed. */
    void forgetIfUnwritten(ShareGroup group) {
        synchronized (group) {
            if (!group.isDead() && group.members.isEmpty() && group.written.isEmpty()) {
                forget(group);
            }
        }
    }

    /** Marks the group dead and forgets it; the caller holds its lock. */
    void forget(ShareGroup group) {
        group.markDead();
        groups.remove(group.groupId, group);
    }
}
