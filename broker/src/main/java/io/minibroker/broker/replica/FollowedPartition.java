package io.minibroker.broker.replica;

import io.minibroker.broker.log.PartitionLog;

import java.util.UUID;

/**
 * A partition this broker follows in one leader epoch: its topic's id (fetches name topics by id), its log here and
 * the leader epoch of the image (a new epoch is a new partition to the fetcher: it truncates again).
 */
record FollowedPartition(UUID topicId, PartitionLog log, int leaderEpoch) {
}
