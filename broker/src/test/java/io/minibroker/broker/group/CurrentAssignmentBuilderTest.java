package io.minibroker.broker.group;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Reconciliation: revoke first, then take the target's epoch and what nobody else holds. */
class CurrentAssignmentBuilderTest {

    private static final UUID T = new UUID(0, 7);

    private static ConsumerGroupMember member(String id, int epoch, Set<Integer> owned) {
        ConsumerGroupMember member = new ConsumerGroupMember(id);
        member.memberEpoch = epoch;
        member.assignedPartitions = TopicAssignment.copyOf(Map.of(T, owned));
        return member;
    }

    private static Map<UUID, Map<Integer, String>> owners(ConsumerGroupMember... members) {
        ConsumerGroup group = new ConsumerGroup("g");
        for (ConsumerGroupMember member : members) {
            group.add(member);
        }
        return group.owners();
    }

    @Test
    void aStableMemberMovesToANewTargetItCanTakeAtOnce() {
        ConsumerGroupMember m = member("m", 1, Set.of(0));
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 1)), owners(m), null);
        assertThat(m.state).isEqualTo(MemberState.STABLE);
        assertThat(m.memberEpoch).isEqualTo(2);
        assertThat(m.previousMemberEpoch).isEqualTo(1);
        assertThat(m.assignedPartitions).isEqualTo(Map.of(T, Set.of(0, 1)));
    }

    /** Kafka's ownsRevokedPartitions: a member reporting it holds none of them (an eager classic rejoin) moves on. */
    @Test
    void aMemberThatAlreadyGaveUpWhatItMustRevokeTakesTheTargetAtOnce() {
        ConsumerGroupMember m = member("m", 1, Set.of(0, 1));
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), Map.of());
        assertThat(m.state).isEqualTo(MemberState.STABLE);
        assertThat(m.memberEpoch).isEqualTo(2);
        assertThat(m.assignedPartitions).isEqualTo(Map.of(T, Set.of(0, 2)));
        assertThat(m.partitionsPendingRevocation).isEmpty();
    }

    /** Kafka 4.3's assignment epochs: a partition kept keeps the epoch it came at, a new one has the target's. */
    @Test
    void eachPartitionKeepsTheEpochItWasAssignedAt() {
        ConsumerGroupMember m = member("m", 1, Set.of(0, 1));
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), null);
        assertThat(m.assignmentEpoch(T, 1)).as("pending revocation, assigned at 1").isEqualTo(1);
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), Map.of(T, Set.of(0)));
        assertThat(m.memberEpoch).isEqualTo(2);
        assertThat(m.assignmentEpoch(T, 0)).isEqualTo(1);
        assertThat(m.assignmentEpoch(T, 2)).isEqualTo(2);
        assertThat(m.assignmentEpoch(T, 1)).as("revoked").isNull();

        CurrentAssignmentBuilder.reconcile(m, 3, Map.of(T, Set.of(0, 2, 3)), owners(m), null);
        assertThat(m.memberEpoch).isEqualTo(3);
        assertThat(List.of(m.assignmentEpoch(T, 0), m.assignmentEpoch(T, 2), m.assignmentEpoch(T, 3)))
                .containsExactly(1, 2, 3);
    }

    @Test
    void partitionsToRevokeComeFirstAndTheEpochWaitsForThem() {
        ConsumerGroupMember m = member("m", 1, Set.of(0, 1));
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), null);
        assertThat(m.state).isEqualTo(MemberState.UNREVOKED_PARTITIONS);
        assertThat(m.memberEpoch).isEqualTo(1);
        assertThat(m.assignedPartitions).isEqualTo(Map.of(T, Set.of(0)));
        assertThat(m.partitionsPendingRevocation).isEqualTo(Map.of(T, Set.of(1)));

        // Still reporting partition 1: nothing moves.
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), Map.of(T, Set.of(0, 1)));
        assertThat(m.state).isEqualTo(MemberState.UNREVOKED_PARTITIONS);

        // Revoked: it takes the target's epoch and partition 2, free.
        CurrentAssignmentBuilder.reconcile(m, 2, Map.of(T, Set.of(0, 2)), owners(m), Map.of(T, Set.of(0)));
        assertThat(m.state).isEqualTo(MemberState.STABLE);
        assertThat(m.memberEpoch).isEqualTo(2);
        assertThat(m.assignedPartitions).isEqualTo(Map.of(T, Set.of(0, 2)));
    }

    @Test
    void aPartitionStillHeldByAnotherIsUnreleasedUntilItIsRevoked() {
        ConsumerGroupMember holder = member("holder", 1, Set.of());
        holder.state = MemberState.UNREVOKED_PARTITIONS;
        holder.partitionsPendingRevocation = TopicAssignment.copyOf(Map.of(T, Set.of(3)));
        ConsumerGroupMember taker = member("taker", 1, Set.of(4));
        CurrentAssignmentBuilder.reconcile(taker, 2, Map.of(T, Set.of(3, 4)), owners(holder, taker), null);
        assertThat(taker.state).isEqualTo(MemberState.UNRELEASED_PARTITIONS);
        assertThat(taker.memberEpoch).isEqualTo(2);
        assertThat(taker.assignedPartitions).isEqualTo(Map.of(T, Set.of(4)));

        holder.partitionsPendingRevocation = TopicAssignment.EMPTY; // the holder revoked it
        Map<UUID, Map<Integer, String>> now = new HashMap<>(owners(holder, taker));
        CurrentAssignmentBuilder.reconcile(taker, 2, Map.of(T, Set.of(3, 4)), now, null);
        assertThat(taker.state).isEqualTo(MemberState.STABLE);
        assertThat(taker.assignedPartitions).isEqualTo(Map.of(T, Set.of(3, 4)));
    }
}
