package io.minibroker.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams groups this broker coordinates, by id. A group id names one group: an id a classic, consumer or share
 * group holds is not a streams group's, and those protocols refuse an id a streams group holds. Concurrent, read
 * without a group's lock; a group is forgotten by marking it dead under its lock and then removing it, as the other
 * groups are. A group's changes are written to {@code __consumer_offsets} ({@link StreamsGroupRecords}).
 */
final class StreamsGroups {

    /**
     * What {@link #replacesClassicGroup} lists as written for the classic group's metadata record: only its key
     * matters, the value being one no streams record has.
     */
    private static final byte[] CLASSIC_METADATA = new byte[0];

    private final Map<String, StreamsGroup> groups = new ConcurrentHashMap<>();
    private final OffsetsTopic log;

    StreamsGroups(OffsetsTopic log) {
        this.log = log;
    }

    /** The streams group of that id, or null if there is none. */
    StreamsGroup get(String groupId) {
        return groups.get(groupId);
    }

    List<StreamsGroup> all() {
        return new ArrayList<>(groups.values());
    }

    /**
     * Lists the group under its id, in place of any earlier one: one replayed from the offsets topic, or one a first
     * join made, once the join is accepted.
     */
    void list(StreamsGroup group) {
        groups.put(group.groupId, group);
    }

    /**
     * Writes what changed since the group's last write, as one batch; the caller holds its lock. Once the batch
     * counts, what it wrote is what the next write is compared with.
     */
    CompletableFuture<Long> write(StreamsGroup group) {
        Map<ByteBuffer, byte[]> now = StreamsGroupRecords.snapshot(group);
        return log.writeChanges(group.groupId, group.written, now).thenApply(offset -> {
            synchronized (group) {
                group.written = now;
            }
            return offset;
        });
    }

    /**
     * As {@link #write(StreamsGroup)}, after a heartbeat of {@code member} (null: gone): while the group's epochs,
     * topology and members are as last written, only that member's records are built and compared, not every
     * member's. Otherwise, the whole group.
     */
    CompletableFuture<Long> write(StreamsGroup group, StreamsGroupMember member) {
        if (member == null) {
            return write(group);
        }
        Map<ByteBuffer, byte[]> changes = GroupRecordChanges.ofOneMember(group.written,
                StreamsGroupRecords.recordCount(group), StreamsGroupRecords.snapshot(group, List.of(member)),
                StreamsGroupRecords::isMemberRecord);
        if (changes == null) {
            return write(group);
        }
        return log.writeIfAny(group.groupId, changes).thenApply(offset -> {
            synchronized (group) {
                group.written.putAll(changes);
            }
            return offset;
        });
    }

    /** Tombstones for every record the group wrote; the caller holds its lock. */
    CompletableFuture<Long> writeTombstones(StreamsGroup group) {
        return log.writeChanges(group.groupId, group.written, Map.of());
    }

    /**
     * The group takes the id of an empty classic group (released): the classic group's metadata record, which the
     * log may hold under the id, counts as written by this group, so that its first write (or its deletion)
     * tombstones it in the same batch, as Kafka writes the classic group's tombstone with the streams group's first
     * records. The caller holds the group's lock.
     */
    void replacesClassicGroup(StreamsGroup group) {
        group.written.put(ByteBuffer.wrap(GroupMetadataRecord.key(group.groupId)), CLASSIC_METADATA);
    }

    /** Marks the group dead and forgets it; the caller holds its lock. */
    void forget(StreamsGroup group) {
        group.markDead();
        groups.remove(group.groupId, group);
    }
}
