package io.minibroker.broker.share;

import java.util.List;

/**
 * A share partition's durable state, the content of Kafka's ShareSnapshot record without its epochs: the start
 * offset and the state batches of the in-flight window above it. Acquired records are written as available with
 * their delivery count, as Kafka does: a lock does not survive the broker that granted it.
 */
public record ShareStateSnapshot(long startOffset, List<StateBatch> batches) {

    /**
     * How many offsets from the start offset on have their delivery complete (acknowledged or archived), or -1 with
     * no start offset: what a leader sends with its state (WriteShareGroupState v1's DeliveryCompleteCount, KIP-1226)
     * and the share coordinator stores, for DescribeShareGroupOffsets' lag.
     */
    public int deliveryCompleteCount() {
        if (startOffset < 0) {
            return -1;
        }
        long complete = 0;
        for (StateBatch batch : batches) {
            if (batch.state() == RecordState.ACKNOWLEDGED || batch.state() == RecordState.ARCHIVED) {
                complete += Math.max(0, batch.lastOffset() - Math.max(batch.firstOffset(), startOffset) + 1);
            }
        }
        return (int) Math.min(complete, Integer.MAX_VALUE);
    }

    /** A run of offsets in one state with one delivery count (Kafka's PersisterStateBatch). */
    public record StateBatch(long firstOffset, long lastOffset, RecordState state, int deliveryCount) {
    }
}
