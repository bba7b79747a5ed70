package io.minibroker.broker.share;

/**
 * What a share group's configuration says about delivering its records: the group configs
 * {@code share.record.lock.duration.ms}, {@code share.delivery.count.limit}, {@code share.partition.max.record.locks}
 * and {@code share.auto.offset.reset}, each defaulting to the broker's {@code group.share.*} key as in Kafka.
 *
 * @param autoOffsetResetEarliest where a share partition starts when no state exists: the log start (earliest) or,
 *                                by default, the high watermark (latest)
 */
public record ShareGroupSettings(int recordLockDurationMs, int deliveryCountLimit, int partitionMaxRecordLocks,
                                 boolean autoOffsetResetEarliest) {
}
