package io.minibroker.broker.group;

/**
 * The classic group states, named as Kafka names them (ListGroups and DescribeGroups report these names).
 * Empty → PreparingRebalance (a member joins) → CompletingRebalance (every member rejoined, or the rebalance
 * timeout passed) → Stable (the leader synced its assignment). A join, leave or session timeout sends a
 * CompletingRebalance or Stable group back to PreparingRebalance; a rebalance that ends with no members leaves
 * it Empty; DeleteGroups makes an Empty group Dead.
 */
public enum GroupState {
    EMPTY("Empty"),
    PREPARING_REBALANCE("PreparingRebalance"),
    COMPLETING_REBALANCE("CompletingRebalance"),
    STABLE("Stable"),
    DEAD("Dead");

    private final String kafkaName;

    GroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    public String kafkaName() {
        return kafkaName;
    }
}
