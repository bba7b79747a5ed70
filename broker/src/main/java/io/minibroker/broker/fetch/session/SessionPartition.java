package io.minibroker.broker.fetch.session;

import java.util.UUID;

/**
 * How a session names one of its partitions: by topic id from Fetch v13 (the name null), by topic name before (the id
 * null), as Kafka's CachedPartition compares by id when the session uses ids and by name otherwise.
 */
public record SessionPartition(String topic, UUID topicId, int partition) {
}
