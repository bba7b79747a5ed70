package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Committed offsets per group: served from memory, written through to {@code __consumer_offsets} first so that
 * they survive a restart (the constructor replays them). Reads are safe from any thread; writes come from the
 * coordinator's thread, under the group's lock, once the coordinator has decided who may commit.
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

    /**
     * Stores a request's commits for a group, written to the offsets topic together first; throws LogException,
     * storing none of them, if the topic refuses them.
     */
    void commit(String groupId, Map<TopicPartition, CommittedOffset> offsets) {
        log.writeCommits(groupId, offsets);
        byGroup.computeIfAbsent(groupId, g -> new ConcurrentHashMap<>()).putAll(offsets);
    }

    Map<TopicPartition, CommittedOffset> all(String groupId) {
        return Map.copyOf(byGroup.getOrDefault(groupId, Map.of()));
    }

    /** The groups that have committed offsets (after a restart, the groups to list as Empty). */
    Iterable<String> groupIds() {
        return byGroup.keySet();
    }

    /**
     * Forgets a group's commits once their tombstones are written; throws LogException, forgetting nothing, if
     * the topic refuses them.
     */
    void deleteGroup(String groupId) {
        Map<TopicPartition, CommittedOffset> committed = byGroup.get(groupId);
        if (committed != null) {
            log.writeTombstones(groupId, Set.copyOf(committed.keySet()));
            byGroup.remove(groupId);
        }
    }
}
