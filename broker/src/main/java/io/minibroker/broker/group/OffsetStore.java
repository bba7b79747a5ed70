package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Committed offsets per group, in memory only: they do not survive a broker restart (no {@code __consumer_offsets}
 * log yet). Safe for concurrent use; the coordinator decides who may commit.
 */
final class OffsetStore {

    /** A committed position, as OffsetFetch returns it. */
    record CommittedOffset(long offset, int leaderEpoch, String metadata) {
    }

    private final Map<String, Map<TopicPartition, CommittedOffset>> byGroup = new ConcurrentHashMap<>();

    void commit(String groupId, TopicPartition partition, CommittedOffset offset) {
        byGroup.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>()).put(partition, offset);
    }

    CommittedOffset get(String groupId, TopicPartition partition) {
        Map<TopicPartition, CommittedOffset> offsets = byGroup.get(groupId);
        return offsets == null ? null : offsets.get(partition);
    }

    Map<TopicPartition, CommittedOffset> all(String groupId) {
        return Map.copyOf(byGroup.getOrDefault(groupId, Map.of()));
    }

    void deleteGroup(String groupId) {
        byGroup.remove(groupId);
    }
}
