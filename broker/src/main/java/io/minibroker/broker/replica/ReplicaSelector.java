package io.minibroker.broker.replica;

import io.minibroker.broker.config.BrokerConfig;

import java.util.Comparator;
import java.util.List;

/**
 * {@code replica.selector.class}: which replica a consumer's fetch is pointed to (KIP-392), by the classes' names,
 * never loading them. Kafka's default, no class, leaves every consumer with the leader; Kafka's
 * RackAwareReplicaSelector picks a replica in the consumer's rack ({@code client.rack}), the leader when it is in that
 * rack or none is, else the most caught-up of them.
 */
public enum ReplicaSelector {

    /** No {@code replica.selector.class}: the leader, always, so no PreferredReadReplica is ever answered. */
    LEADER,
    /** {@value BrokerConfig#RACK_AWARE_REPLICA_SELECTOR}. */
    RACK_AWARE;

    /** A replica as the selector weighs it: its rack (null: none), log end, and how long since it was caught up. */
    public record ReplicaView(int id, String rack, long logEndOffset, long timeSinceLastCaughtUpMs) {
    }

    /**
     * Kafka's ReplicaView.comparator: the greater log end, then the more recently caught up, then the greater id
     * (the order {@code max} picks by).
     */
    private static final Comparator<ReplicaView> MOST_CAUGHT_UP = Comparator.comparingLong(ReplicaView::logEndOffset)
            .thenComparing(Comparator.comparingLong(ReplicaView::timeSinceLastCaughtUpMs).reversed())
            .thenComparingInt(ReplicaView::id);

    /** The selector a {@code replica.selector.class} value names (BrokerConfig has refused any other name). */
    public static ReplicaSelector named(String className) {
        return className == null ? LEADER : RACK_AWARE;
    }

    /**
     * The replica a consumer in {@code clientRack} (null or empty: none told) should read from, among
     * {@code replicas} (the leader among them), as Kafka's RackAwareReplicaSelector.select picks it.
     */
    public ReplicaView select(String clientRack, ReplicaView leader, List<ReplicaView> replicas) {
        if (this == LEADER || clientRack == null || clientRack.isEmpty()) {
            return leader;
        }
        List<ReplicaView> sameRack = replicas.stream().filter(replica -> clientRack.equals(replica.rack())).toList();
        if (sameRack.isEmpty() || sameRack.contains(leader)) {
            return leader;
        }
        return sameRack.stream().max(MOST_CAUGHT_UP).orElse(leader);
    }
}
