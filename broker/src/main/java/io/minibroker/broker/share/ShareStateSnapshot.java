package io.minibroker.broker.share;

import java.util.List;

/**
 * A share partition's durable state, the content of Kafka's ShareSnapshot record without its epochs: the start
 * offset and the state batches of the in-flight window above it. Acquired records are written as available with
 * their delivery count, as Kafka does: a lock does not survive the broker that granted it.
 */
public record ShareStateSnapshot(long startOffset, List<StateBatch> batches) {

    /** A run of offsets in one state with one delivery count (Kafka's PersisterStateBatch). */
    public record StateBatch(long firstOffset, long lastOffset, RecordState state, int deliveryCount) {
    }
}
