package io.minibroker.broker.group;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Reconciliation of streams tasks: revoke first, and an active task moves only once its holder let it go. */
class StreamsReconciliationTest {

    private static StreamsGroupMember member(StreamsGroup group, String id, String process, int epoch,
                                             Map<String, Set<Integer>> active) {
        StreamsGroupMember member = new StreamsGroupMember(id);
        member.processId = process;
        member.memberEpoch = epoch;
        member.assignedTasks = new StreamsTasks(active, Map.of(), Map.of());
        group.members.put(id, member);
        return member;
    }

    private static StreamsTasks active(Map<String, Set<Integer>> tasks) {
        return new StreamsTasks(tasks, Map.of(), Map.of());
    }

    @Test
    void aTaskMovesToItsNewOwnerOnlyOnceRevoked() {
        StreamsGroup group = new StreamsGroup("g");
        StreamsGroupMember a = member(group, "a", "p1", 1, Map.of("0", Set.of(0, 1)));
        StreamsGroupMember b = member(group, "b", "p2", 0, Map.of());

        // b's target includes task 0_1, which a still holds: b gets the epoch but not the task.
        StreamsReconciliation.reconcile(b, 2, active(Map.of("0", Set.of(1))),
                () -> group.owners("b"), StreamsTasks.EMPTY);
        assertThat(b.memberEpoch).isEqualTo(2);
        assertThat(b.state).isEqualTo(StreamsGroupMember.State.UNRELEASED_TASKS);
        assertThat(b.assignedTasks.active()).isEmpty();

        // a must revoke 0_1 and keeps its epoch until it says it has.
        StreamsReconciliation.reconcile(a, 2, active(Map.of("0", Set.of(0))), () -> group.owners("a"), null);
        assertThat(a.state).isEqualTo(StreamsGroupMember.State.UNREVOKED_TASKS);
        assertThat(a.memberEpoch).isEqualTo(1);
        assertThat(a.tasksPendingRevocation.active()).isEqualTo(Map.of("0", Set.of(1)));
        StreamsReconciliation.reconcile(b, 2, active(Map.of("0", Set.of(1))),
                () -> group.owners("b"), StreamsTasks.EMPTY);
        assertThat(b.assignedTasks.active()).isEmpty();

        StreamsReconciliation.reconcile(a, 2, active(Map.of("0", Set.of(0))), () -> group.owners("a"),
                active(Map.of("0", Set.of(0))));
        assertThat(a.state).isEqualTo(StreamsGroupMember.State.STABLE);
        assertThat(a.memberEpoch).isEqualTo(2);
        assertThat(a.previousMemberEpoch).isEqualTo(1);

        StreamsReconciliation.reconcile(b, 2, active(Map.of("0", Set.of(1))),
                () -> group.owners("b"), StreamsTasks.EMPTY);
        assertThat(b.state).isEqualTo(StreamsGroupMember.State.STABLE);
        assertThat(b.assignedTasks.active()).isEqualTo(Map.of("0", Set.of(1)));
    }

    /** Which processes hold each task is built (walking every member) only when the member moves on. */
    @Test
    void aStableMemberAtTheTargetEpochDoesNotAskWhoHoldsTheTasks() {
        StreamsGroup group = new StreamsGroup("g");
        StreamsGroupMember a = member(group, "a", "p1", 2, Map.of("0", Set.of(0)));
        StreamsReconciliation.reconcile(a, 2, active(Map.of("0", Set.of(0))), () -> {
            throw new AssertionError("the owners were built");
        }, active(Map.of("0", Set.of(0))));
        assertThat(a.state).isEqualTo(StreamsGroupMember.State.STABLE);
        assertThat(a.memberEpoch).isEqualTo(2);
    }

    @Test
    void aStandbyWaitsWhileItsProcessHoldsTheActiveCopy() {
        StreamsGroup group = new StreamsGroup("g");
        member(group, "a1", "p1", 1, Map.of("0", Set.of(0)));
        StreamsGroupMember a2 = member(group, "a2", "p1", 1, Map.of());
        StreamsReconciliation.reconcile(a2, 2, new StreamsTasks(Map.of(), Map.of("0", Set.of(0)), Map.of()),
                () -> group.owners("a2"), StreamsTasks.EMPTY);
        assertThat(a2.state).isEqualTo(StreamsGroupMember.State.UNRELEASED_TASKS);
        assertThat(a2.assignedTasks.standby()).isEmpty();
    }

    @Test
    void aMemberTakesBackWhatItRevokedWhenItsNewTargetHasItAgain() {
        StreamsGroup group = new StreamsGroup("g");
        StreamsGroupMember a = member(group, "a", "p1", 1, Map.of("0", Set.of(0, 1)));
        StreamsReconciliation.reconcile(a, 2, active(Map.of("0", Set.of(0))), () -> group.owners("a"), null);
        assertThat(a.tasksPendingRevocation.active()).isEqualTo(Map.of("0", Set.of(1)));
        // The member that took 0_1's place left: the newer target gives 0_1 back once a has revoked it.
        StreamsReconciliation.reconcile(a, 3, active(Map.of("0", Set.of(0, 1))), () -> group.owners("a"),
                active(Map.of("0", Set.of(0))));
        assertThat(a.state).isEqualTo(StreamsGroupMember.State.STABLE);
        assertThat(a.memberEpoch).isEqualTo(3);
        assertThat(a.assignedTasks.active()).isEqualTo(Map.of("0", Set.of(0, 1)));
    }
}
