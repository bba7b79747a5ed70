package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Committed offsets per group: served from memory, written through to {@code __consumer_offsets} first so that
 * they survive a restart (the constructor replays them). Safe for concurrent use; the coordinator decides who
 * may commit.
 */
final class OffsetStore {

    /** A committed position, as OffsetFetch returns it. */
    record CommittedOffset(long offset, int leaderEpoch, String metadata) {
    }

    private final OffsetsTopic log;
    private final Map<String, Map<TopicPartition, CommittedOffset>> byGroup = new ConcurrentHashMap<>();

    OffsetStore(OffsetsTopic log) {
        this.log = log;
        log.replayInto(byGroup);
    }

    /** Stores a commit; throws LogException (nothing stored) if the offsets topic cannot take it. */
    void commit(String groupId, TopicPartition partition, CommittedOffset offset) {
        log.write(groupId, partition, offset);
        byGroup.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>()).put(partition, offset);
    }

    Map<TopicPartition, CommittedOffset> all(String groupId) {
        return Map.copyOf(byGroup.getOrDefault(groupId, Map.of()));
    }

    /** The groups that have committed offsets (after a restart, the groups to list as Empty). */
    Iterable<String> groupIds() {
        return byGroup.keySet();
    }

    void deleteGroup(String groupId) {
        Map<TopicPartition, CommittedOffset> removed = byGroup.remove(groupId);
        if (removed != null) {
            for (TopicPartition partition : removed.keySet()) {
                log.write(groupId, partition, null);
            }
        }
    }
}
