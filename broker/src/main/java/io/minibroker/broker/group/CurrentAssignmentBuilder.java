package io.minibroker.broker.group;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Moves one member towards its target assignment, Kafka's CurrentAssignmentBuilder. A member first revokes what it
 * owns and is no longer its target (UNREVOKED_PARTITIONS: it keeps its epoch and gets nothing new meanwhile); then
 * it takes the target's epoch and the target partitions nobody else holds; those still held by another member
 * (assigned there, or pending its revocation) come later (UNRELEASED_PARTITIONS), so that no partition is ever
 * owned by two members at once. Each partition keeps the epoch it was assigned to the member at, a new one the
 * target's (Kafka 4.3's assignment epochs, which an OffsetCommit at an older member epoch is checked against).
 */
final class CurrentAssignmentBuilder {

    private CurrentAssignmentBuilder() {
    }

    /**
     * Updates {@code member} in place; the caller holds the group's lock.
     *
     * @param owners     which member owns each partition now ({@link ConsumerGroup#owners})
     * @param reported   the partitions the member says it owns in this heartbeat, or null if it did not say
     */
    static void reconcile(ConsumerGroupMember member, int targetEpoch, Map<UUID, Set<Integer>> target,
                          Map<UUID, Map<Integer, String>> owners, Map<UUID, Set<Integer>> reported) {
        switch (member.state) {
            case STABLE -> {
                if (member.memberEpoch != targetEpoch) {
                    next(member, targetEpoch, target, owners, reported);
                }
            }
            case UNREVOKED_PARTITIONS -> {
                // Nothing moves until the member has revoked, whatever newer target came meanwhile: its rebalance
                // timeout runs for this revocation. Then it reconciles towards the latest target.
                if (!stillOwnsAny(reported, member.partitionsPendingRevocation)) {
                    next(member, targetEpoch, target, owners, reported);
                }
            }
            case UNRELEASED_PARTITIONS -> next(member, targetEpoch, target, owners, reported);
        }
    }

    /** Whether the member may still hold a partition to revoke: it did not report, or reported one of them. */
    private static boolean stillOwnsAny(Map<UUID, Set<Integer>> reported, Map<UUID, Set<Integer>> revoking) {
        if (reported == null) {
            return !revoking.isEmpty();
        }
        return !TopicAssignment.intersection(revoking, reported).isEmpty();
    }

    /**
     * Towards the target: the member keeps what it still may, and is asked to revoke the rest first; unless what
     * it reports owning already leaves those out (Kafka's ownsRevokedPartitions: a classic member rejoining after
     * an eager revocation), when it moves to the target epoch at once.
     */
    private static void next(ConsumerGroupMember member, int targetEpoch, Map<UUID, Set<Integer>> target,
                             Map<UUID, Map<Integer, String>> owners, Map<UUID, Set<Integer>> reported) {
        Map<UUID, Set<Integer>> current = member.assignedPartitions;
        Map<UUID, Set<Integer>> retained = TopicAssignment.intersection(current, target);
        Map<UUID, Set<Integer>> revoking = TopicAssignment.difference(current, target);
        Map<UUID, Set<Integer>> assigning = TopicAssignment.difference(target, current);
        Map<UUID, Set<Integer>> free = new HashMap<>();
        boolean unreleased = false;
        for (Map.Entry<UUID, Set<Integer>> topic : assigning.entrySet()) {
            Map<Integer, String> topicOwners = owners.getOrDefault(topic.getKey(), Map.of());
            for (int partition : topic.getValue()) {
                String owner = topicOwners.get(partition);
                if (owner == null || owner.equals(member.memberId)) {
                    free.computeIfAbsent(topic.getKey(), t -> new HashSet<>()).add(partition);
                } else {
                    unreleased = true;
                }
            }
        }
        if (stillOwnsAny(reported, revoking)) {
            member.state = MemberState.UNREVOKED_PARTITIONS;
            member.assignedPartitions = retained;
            member.partitionsPendingRevocation = revoking;
            member.revocationToken++;
            return;
        }
        Map<UUID, Map<Integer, Integer>> epochs = new HashMap<>();
        retained.forEach((topic, partitions) -> partitions.forEach(partition -> epochs
                .computeIfAbsent(topic, t -> new HashMap<>()).put(partition, member.assignmentEpoch(topic, partition))));
        free.forEach((topic, partitions) -> partitions.forEach(partition -> epochs
                .computeIfAbsent(topic, t -> new HashMap<>()).put(partition, targetEpoch)));
        member.assignmentEpochs = epochs;
        member.previousMemberEpoch = member.memberEpoch;
        member.memberEpoch = targetEpoch;
        member.assignedPartitions = TopicAssignment.union(retained, free);
        member.partitionsPendingRevocation = TopicAssignment.EMPTY;
        member.state = unreleased ? MemberState.UNRELEASED_PARTITIONS : MemberState.STABLE;
        member.revocationToken++;
    }
}
