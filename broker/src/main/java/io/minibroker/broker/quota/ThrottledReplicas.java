package io.minibroker.broker.quota;

import java.util.HashSet;
import java.util.Set;

/**
 * A topic's {@code leader.replication.throttled.replicas} or {@code follower.replication.throttled.replicas}
 * (KIP-73) as one broker reads it, as Kafka's TopicConfigHandler parses it: {@code *} throttles every partition, a
 * list of {@code partition:brokerId} pairs the partitions paired with this broker's id, and the empty value none.
 * The value was checked when it was set (TopicConfig), so pairs that do not parse are not expected here.
 */
public final class ThrottledReplicas {

    private static final ThrottledReplicas NONE = new ThrottledReplicas(false, Set.of());
    private static final ThrottledReplicas ALL = new ThrottledReplicas(true, Set.of());

    private final boolean all;
    private final Set<Integer> partitions;

    private ThrottledReplicas(boolean all, Set<Integer> partitions) {
        this.all = all;
        this.partitions = partitions;
    }

    /** The partitions {@code value} throttles on broker {@code brokerId}; null or blank throttles none. */
    public static ThrottledReplicas parse(String value, int brokerId) {
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.isEmpty()) {
            return NONE;
        }
        if (trimmed.equals("*")) {
            return ALL;
        }
        Set<Integer> partitions = new HashSet<>();
        for (String pair : trimmed.split(",")) {
            String[] parts = pair.split(":");
            if (Integer.parseInt(parts[1].trim()) == brokerId) {
                partitions.add(Integer.parseInt(parts[0].trim()));
            }
        }
        return partitions.isEmpty() ? NONE : new ThrottledReplicas(false, Set.copyOf(partitions));
    }

    public boolean throttles(int partition) {
        return all || partitions.contains(partition);
    }
}
