package io.minibroker.broker.group;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Moves one streams-group member towards its target tasks, Kafka's streams CurrentAssignmentBuilder. A member first
 * revokes the tasks it holds that are no longer its target (UNREVOKED_TASKS: it keeps its epoch and gets nothing new
 * meanwhile); then it takes the target's epoch and the target tasks that are free; a task still held elsewhere comes
 * later (UNRELEASED_TASKS): an active task while any process holds it active or this member's process holds a
 * standby or warm-up copy of it, a standby or warm-up task while this member's process holds any copy of it. So no
 * task is ever active on two members at once, and a process never holds two copies of a task.
 */
final class StreamsReconciliation {

    private StreamsReconciliation() {
    }

    /**
     * Updates {@code member} in place; the caller holds the group's lock.
     *
     * @param owners   which processes hold each task now ({@link StreamsGroup#owners}): asked only when the member
     *                 moves on, as building it walks every member's tasks
     * @param reported the tasks the member says it holds in this heartbeat, or null if it did not say
     */
    static void reconcile(StreamsGroupMember member, int targetEpoch, StreamsTasks target,
                          Supplier<StreamsGroup.Owners> owners, StreamsTasks reported) {
        switch (member.state) {
            case STABLE -> {
                if (member.memberEpoch != targetEpoch) {
                    next(member, targetEpoch, target, owners, reported);
                }
            }
            case UNREVOKED_TASKS -> {
                // Nothing moves until the member has revoked, whatever newer target came meanwhile: its rebalance
                // timeout runs for this revocation. Then it reconciles towards the latest target.
                if (!stillHoldsAny(reported, member.tasksPendingRevocation)) {
                    next(member, targetEpoch, target, owners, reported);
                }
            }
            case UNRELEASED_TASKS -> next(member, targetEpoch, target, owners, reported);
        }
    }

    private static boolean stillHoldsAny(StreamsTasks reported, StreamsTasks revoking) {
        return reported == null ? !revoking.isEmpty() : reported.containsAny(revoking);
    }

    private static void next(StreamsGroupMember member, int targetEpoch, StreamsTasks target,
                             Supplier<StreamsGroup.Owners> ownersNow, StreamsTasks reported) {
        StreamsGroup.Owners owners = ownersNow.get();
        String process = member.processId;
        StreamsTasks current = member.assignedTasks;
        boolean[] unreleased = new boolean[1];
        BiPredicate<String, Integer> activeHeld = (sub, p) -> owners.activeProcess(sub, p) != null
                || owners.otherCopyOn(sub, p, process);
        BiPredicate<String, Integer> copyHeld = (sub, p) -> process.equals(owners.activeProcess(sub, p))
                || owners.otherCopyOn(sub, p, process);
        StreamsTasks retained = new StreamsTasks(TopicAssignment.intersection(current.active(), target.active()),
                TopicAssignment.intersection(current.standby(), target.standby()),
                TopicAssignment.intersection(current.warmup(), target.warmup()));
        StreamsTasks revoking = new StreamsTasks(TopicAssignment.difference(current.active(), target.active()),
                TopicAssignment.difference(current.standby(), target.standby()),
                TopicAssignment.difference(current.warmup(), target.warmup()));
        StreamsTasks free = new StreamsTasks(
                free(TopicAssignment.difference(target.active(), current.active()), activeHeld, unreleased),
                free(TopicAssignment.difference(target.standby(), current.standby()), copyHeld, unreleased),
                free(TopicAssignment.difference(target.warmup(), current.warmup()), copyHeld, unreleased));
        if (!revoking.isEmpty() && stillHoldsAny(reported, revoking)) {
            member.state = StreamsGroupMember.State.UNREVOKED_TASKS;
            hold(member, retained, revoking, targetEpoch);
            member.revocationToken++;
            return;
        }
        member.previousMemberEpoch = member.memberEpoch;
        member.memberEpoch = targetEpoch;
        hold(member, retained.union(free), StreamsTasks.EMPTY, targetEpoch);
        member.state = unreleased[0] ? StreamsGroupMember.State.UNRELEASED_TASKS : StreamsGroupMember.State.STABLE;
        member.revocationToken++;
    }

    /**
     * Gives the member these tasks: an active task it held keeps the epoch it was assigned at, a new one takes
     * {@code epoch}, the target's (Kafka's CurrentAssignmentBuilder with epochs).
     */
    private static void hold(StreamsGroupMember member, StreamsTasks assigned, StreamsTasks revoking, int epoch) {
        Map<TaskId, Integer> epochs = new HashMap<>();
        for (StreamsTasks tasks : List.of(assigned, revoking)) {
            tasks.active().forEach((sub, partitions) -> partitions.forEach(p -> {
                TaskId task = new TaskId(sub, p);
                epochs.put(task, member.activeTaskEpochs.getOrDefault(task, epoch));
            }));
        }
        member.assignedTasks = assigned;
        member.tasksPendingRevocation = revoking;
        member.activeTaskEpochs = epochs;
    }

    /** The tasks of {@code assigning} nobody holds; notes in {@code unreleased} whether any is still held. */
    private static Map<String, Set<Integer>> free(Map<String, Set<Integer>> assigning,
                                                  BiPredicate<String, Integer> held, boolean[] unreleased) {
        Map<String, Set<Integer>> free = new HashMap<>();
        assigning.forEach((sub, partitions) -> partitions.forEach(p -> {
            if (held.test(sub, p)) {
                unreleased[0] = true;
            } else {
                free.computeIfAbsent(sub, s -> new HashSet<>()).add(p);
            }
        }));
        return free;
    }
}
