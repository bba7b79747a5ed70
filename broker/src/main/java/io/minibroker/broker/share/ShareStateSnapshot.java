package io.minibroker.broker.share;

import java.util.ArrayList;
import java.util.List;

/**
 * A share partition's durable state, the content of Kafka's ShareSnapshot record: the start offset and the state
 * batches of the in-flight window above it. Acquired records are written as available with their delivery count,
 * as Kafka does: a lock does not survive the broker that granted it.
 */
public record ShareStateSnapshot(long startOffset, List<StateBatch> batches) {

    /** A run of offsets in one state with one delivery count (Kafka's PersisterStateBatch). */
    public record StateBatch(long firstOffset, long lastOffset, RecordState state, int deliveryCount) {
    }

    /** One line: {@code startOffset} then {@code first-last:stateId:count} per batch, space separated. */
    String encode() {
        StringBuilder out = new StringBuilder().append(startOffset);
        for (StateBatch batch : batches) {
            out.append(' ').append(batch.firstOffset).append('-').append(batch.lastOffset).append(':')
                    .append(batch.state.id()).append(':').append(batch.deliveryCount);
        }
        return out.append('\n').toString();
    }

    static ShareStateSnapshot decode(String text) {
        String[] parts = text.trim().split(" ");
        List<StateBatch> batches = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            String[] fields = parts[i].split(":");
            String[] range = fields[0].split("-");
            batches.add(new StateBatch(Long.parseLong(range[0]), Long.parseLong(range[1]),
                    RecordState.forId(Integer.parseInt(fields[1])), Integer.parseInt(fields[2])));
        }
        return new ShareStateSnapshot(Long.parseLong(parts[0]), batches);
    }
}
