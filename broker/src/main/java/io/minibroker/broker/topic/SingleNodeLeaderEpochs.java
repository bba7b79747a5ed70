package io.minibroker.broker.topic;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.LogListener;
import io.minibroker.broker.log.PartitionLog;

/**
 * A single node leads each of its partitions from the moment the log is opened at start or created, in the epoch
 * its appends are stamped with ({@link PartitionLeadership#SINGLE_NODE}): that epoch starts at the log end then, as
 * Kafka's replica assigns it as it becomes leader (Partition.makeLeader), so that a partition with no records yet
 * answers ListOffsets and OffsetForLeaderEpoch with it rather than with no epoch. Assigned in memory only
 * ({@link PartitionLog#assignLeaderEpochInMemory}); told under the log manager's lock, it takes the log's monitor,
 * the order the manager's own deletions take them in.
 */
public final class SingleNodeLeaderEpochs implements LogListener {

    @Override
    public void logOpened(PartitionLog log) {
        log.assignLeaderEpochInMemory(PartitionLeadership.SINGLE_NODE.leaderEpoch(log.topicPartition()));
    }
}
