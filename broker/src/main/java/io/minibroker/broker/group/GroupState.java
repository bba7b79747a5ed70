package io.minibroker.broker.group;

import java.util.EnumSet;
import java.util.Set;

/**
 * The classic group states, named as Kafka names them (ListGroups and DescribeGroups report these names).
 * Empty → PreparingRebalance (a member joins) → CompletingRebalance (every member rejoined, or the rebalance
 * timeout passed) → Stable (the leader synced its assignment). A join, leave or session timeout sends a
 * CompletingRebalance or Stable group back to PreparingRebalance; a rebalance that ends with no members leaves
 * it Empty; DeleteGroups, offset expiry, unloading and closing make a group Dead, from whatever state.
 *
 * <p>Each state names the states a group may come to it from ({@link #validPreviousStates}), as Kafka's
 * ClassicGroupState does; {@link ClassicGroup#transitionTo} refuses any other move. Loading a group from
 * {@code __consumer_offsets} is no move: the group starts in the state its record gives
 * ({@link ClassicGroup#restored}).
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

    /** The states a group may be in to move to this one. */
    public Set<GroupState> validPreviousStates() {
        return switch (this) {
            case EMPTY -> EnumSet.of(PREPARING_REBALANCE); // the join phase ended without members
            case PREPARING_REBALANCE -> EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY);
            case COMPLETING_REBALANCE -> EnumSet.of(PREPARING_REBALANCE); // the join phase ended with members
            case STABLE -> EnumSet.of(COMPLETING_REBALANCE); // the leader's assignment was stored
            case DEAD -> EnumSet.allOf(GroupState.class); // deleted, expired, unloaded or closed: from anywhere
        };
    }

    /** Whether a group in {@code previous} may move to this state. */
    public boolean allowsFrom(GroupState previous) {
        return validPreviousStates().contains(previous);
    }
}
