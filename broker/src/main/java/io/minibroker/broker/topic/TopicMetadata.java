package io.minibroker.broker.topic;

import java.util.Map;
import java.util.UUID;

/** A topic as the broker knows it: its id, partition count and config overrides. */
public record TopicMetadata(String name, UUID id, int partitions, Map<String, String> configOverrides) {

    public TopicMetadata {
        configOverrides = Map.copyOf(configOverrides);
    }

    /** Whether the topic has a partition of this index. */
    public boolean hasPartition(int partition) {
        return partition >= 0 && partition < partitions;
    }
}
