package io.minibroker.broker.share;

import java.util.UUID;

/** A share partition: one group's view of one topic partition, named by topic id as the share APIs name it. */
public record SharePartitionKey(String groupId, UUID topicId, int partition) {
}
