package io.minibroker.broker.group;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A share group (KIP-932), Kafka's ShareGroup: the group epoch (bumped when members come or go, or what they
 * subscribe to changes), the target assignment computed at the assignment epoch ({@link ShareGroupAssignor}), and
 * the members. Guarded by its own monitor, as the other groups are.
 */
final class ShareGroup {

    /** Kafka's ShareGroupState, as ListGroups, DescribeGroups and ShareGroupDescribe name it. */
    enum State {
        EMPTY("Empty"), STABLE("Stable"), DEAD("Dead");

        final String displayName;

        State(String displayName) {
            this.displayName = displayName;
        }
    }

    final String groupId;
    int groupEpoch;
    int assignmentEpoch;
    final Map<String, ShareGroupMember> members = new LinkedHashMap<>();
    /** Each member's target assignment, at {@link #assignmentEpoch}. */
    final Map<String, Map<UUID, Set<Integer>>> targetAssignment = new HashMap<>();
    /**
     * The topic names its members subscribe to, sorted ({@link #subscriptionsChanged}): what a heartbeat looks up,
     * not gathered from every member each time.
     */
    SortedSet<String> subscribedTopicNames = Collections.emptySortedSet();
    /** The subscribed topics' partition counts, by topic id, as the last target assignment saw them. */
    Map<UUID, Integer> subscribedPartitions = Map.of();
    /**
     * The subscribed topics' {@link MetadataHash} the group epoch was last bumped for, as Kafka keeps it in the
     * group's metadata record: a heartbeat that finds another bumps the epoch, after a load too.
     */
    long metadataHash;
    /**
     * The share partitions the group has state for (record 15), or null while it has none, as Kafka writes that
     * record first when there is something to initialize.
     */
    ShareGroupStatePartitions statePartitions;
    /**
     * Whether partitions became initialized since the target assignment was computed (Kafka's
     * initializedAssignmentPending): the next heartbeat bumps the group epoch to assign them.
     */
    boolean assignmentPending;
    /** The group's records as last written to {@code __consumer_offsets}, by key ({@link ShareGroupRecords}). */
    Map<ByteBuffer, byte[]> written = new LinkedHashMap<>();
    private boolean dead;

    ShareGroup(String groupId) {
        this.groupId = groupId;
        this.groupEpoch = ConsumerGroup.NEW_GROUP_EPOCH;
        this.assignmentEpoch = ConsumerGroup.NEW_GROUP_EPOCH;
    }

    State state() {
        if (dead) {
            return State.DEAD;
        }
        return members.isEmpty() ? State.EMPTY : State.STABLE;
    }

    Map<UUID, Set<Integer>> targetOf(String memberId) {
        return targetAssignment.getOrDefault(memberId, Map.of());
    }

    /** Gathers {@link #subscribedTopicNames} again: a member came, went, or subscribes to other topics. */
    void subscriptionsChanged() {
        SortedSet<String> names = new TreeSet<>();
        members.values().forEach(member -> names.addAll(member.subscribedTopicNames));
        subscribedTopicNames = names;
    }

    /** The share partitions the group has state for, an empty set made now if it had none. */
    ShareGroupStatePartitions statePartitions() {
        if (statePartitions == null) {
            statePartitions = new ShareGroupStatePartitions();
        }
        return statePartitions;
    }

    boolean isDead() {
        return dead;
    }

    void markDead() {
        dead = true;
    }
}
