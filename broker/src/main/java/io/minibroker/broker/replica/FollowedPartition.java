package io.minibroker.broker.replica;

import io.minibroker.broker.log.PartitionLog;

import java.util.UUID;

/** A partition this broker follows: its topic's id (fetches name topics by id) and its log here. */
record FollowedPartition(UUID topicId, PartitionLog log) {
}
