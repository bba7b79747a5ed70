package io.minibroker.broker.group;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A streams group's topology checked against the topics there are, Kafka's ConfiguredTopology: the number of tasks
 * of each subtopology, the internal topics still to be created, and what the members are told while the topology
 * cannot run (a {@link Status}). Ready, and assigned, only with no status.
 */
record StreamsConfiguredTopology(int topologyEpoch, SortedMap<String, Integer> taskCounts,
                                 List<InternalTopic> missingInternalTopics, Status status) {

    /**
     * The heartbeat's status codes (StreamsGroupHeartbeatResponse.Status) that topic configuration answers:
     * STALE_TOPOLOGY 0, MISSING_SOURCE_TOPICS 1, INCORRECTLY_PARTITIONED_TOPICS 2, MISSING_INTERNAL_TOPICS 3,
     * SHUTDOWN_APPLICATION 4.
     */
    static final byte STALE_TOPOLOGY = 0;
    static final byte MISSING_SOURCE_TOPICS = 1;
    static final byte INCORRECTLY_PARTITIONED_TOPICS = 2;
    static final byte MISSING_INTERNAL_TOPICS = 3;
    static final byte SHUTDOWN_APPLICATION = 4;

    record Status(byte code, String detail) {
    }

    /** An internal topic to create: its partitions decided, a replication factor of -1 the broker's default. */
    record InternalTopic(String name, int partitions, short replicationFactor, Map<String, String> configs) {
    }

    boolean isReady() {
        return status == null && taskCounts != null;
    }

    /** A topology that cannot be configured: no tasks, nothing to create. */
    static StreamsConfiguredTopology failed(int topologyEpoch, byte code, String detail) {
        return new StreamsConfiguredTopology(topologyEpoch, null, List.of(), new Status(code, detail));
    }
}
