package io.minibroker.broker.share;

import io.minibroker.broker.log.PartitionLog;

/**
 * What a share group's configuration says about delivering its records: the group configs
 * {@code share.record.lock.duration.ms}, {@code share.delivery.count.limit}, {@code share.partition.max.record.locks},
 * {@code share.auto.offset.reset} and {@code share.isolation.level}, each defaulting to the broker's
 * {@code group.share.*} key (or to latest and read_uncommitted, which have none) as in Kafka.
 *
 * @param autoOffsetReset         where a share partition starts when no state exists
 * @param readCommitted           read_committed: records are acquired only below the last stable offset, and those
 *                                of aborted transactions are archived rather than delivered (Kafka's
 *                                SharePartition); by default (read_uncommitted) up to the high watermark, all of them
 */
public record ShareGroupSettings(int recordLockDurationMs, int deliveryCountLimit, int partitionMaxRecordLocks,
                                 ShareAutoOffsetReset autoOffsetReset, boolean readCommitted) {

    /** Where acquisition stops in {@code log}: its last stable offset for read_committed, else its high watermark. */
    long readableEnd(PartitionLog log) {
        return readCommitted ? log.lastStableOffset() : log.highWatermark();
    }
}
