package io.minibroker.broker.group;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A streams group (KIP-1071), Kafka's StreamsGroup: the group epoch (bumped when members come or go or change what the
 * assignment depends on, or the topology's topics change), the topology the first member declared and how it fits the
 * topics there are ({@link StreamsConfiguredTopology}), the target assignment computed at the assignment epoch
 * ({@link StreamsTaskAssignor}), and the members. Guarded by its own monitor, as the other groups are.
 */
final class StreamsGroup {

    /** Kafka's StreamsGroupState, as ListGroups, DescribeGroups and StreamsGroupDescribe name it. */
    enum State {
        EMPTY("Empty"), NOT_READY("NotReady"), ASSIGNING("Assigning"), RECONCILING("Reconciling"),
        STABLE("Stable"), DEAD("Dead");

        final String displayName;

        State(String displayName) {
            this.displayName = displayName;
        }
    }

    final String groupId;
    int groupEpoch;
    int assignmentEpoch;
    /** The topology, once a member declared it; null before. */
    StreamsTopology topology;
    /** The topology against the topics as the last epoch bump saw them; null until configured. */
    StreamsConfiguredTopology configuredTopology;
    /** The partition counts of the topology's topics (null: missing) when it was last configured. */
    Map<String, Integer> topicPartitions = Map.of();
    /** The epoch of the topology last found ready; -1 if none was (Kafka's validatedTopologyEpoch). */
    int validatedTopologyEpoch = -1;
    /** Moves on whenever a member's tasks change, so that members learn the endpoints' new partitions. */
    int endpointInformationEpoch;
    /** A member that asked for the whole application to shut down; told to every member from then on. */
    String shutdownRequestMemberId;
    final Map<String, StreamsGroupMember> members = new LinkedHashMap<>();
    /** Each member's target assignment, at {@link #assignmentEpoch}. */
    final Map<String, StreamsTasks> targetAssignment = new HashMap<>();
    private boolean dead;

    StreamsGroup(String groupId) {
        this.groupId = groupId;
    }

    State state() {
        if (dead) {
            return State.DEAD;
        }
        if (members.isEmpty()) {
            return State.EMPTY;
        }
        if (configuredTopology == null || !configuredTopology.isReady()) {
            return State.NOT_READY;
        }
        if (groupEpoch != assignmentEpoch) {
            return State.ASSIGNING;
        }
        for (StreamsGroupMember member : members.values()) {
            if (member.memberEpoch != assignmentEpoch || member.state != StreamsGroupMember.State.STABLE) {
                return State.RECONCILING;
            }
        }
        return State.STABLE;
    }

    StreamsTasks targetOf(String memberId) {
        return targetAssignment.getOrDefault(memberId, StreamsTasks.EMPTY);
    }

    /**
     * Which processes hold each task now, as Kafka's currentActiveTaskProcessId and current standby/warm-up process
     * ids: a task is held while assigned to a member or pending its revocation.
     */
    Owners owners() {
        Owners owners = new Owners();
        for (StreamsGroupMember member : members.values()) {
            for (StreamsTasks tasks : new StreamsTasks[] {member.assignedTasks, member.tasksPendingRevocation}) {
                tasks.active().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.active.put(new TaskKey(sub, p), member.processId)));
                tasks.standby().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.others.computeIfAbsent(new TaskKey(sub, p), k -> new HashSet<>()).add(member.processId)));
                tasks.warmup().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.others.computeIfAbsent(new TaskKey(sub, p), k -> new HashSet<>()).add(member.processId)));
            }
        }
        return owners;
    }

    record TaskKey(String subtopologyId, int partition) {
    }

    /** The processes holding each task: the active copy's, and those of its standby and warm-up copies. */
    static final class Owners {
        final Map<TaskKey, String> active = new HashMap<>();
        final Map<TaskKey, Set<String>> others = new HashMap<>();

        String activeProcess(String subtopologyId, int partition) {
            return active.get(new TaskKey(subtopologyId, partition));
        }

        boolean otherCopyOn(String subtopologyId, int partition, String processId) {
            return others.getOrDefault(new TaskKey(subtopologyId, partition), Set.of()).contains(processId);
        }
    }

    boolean isDead() {
        return dead;
    }

    void markDead() {
        dead = true;
    }
}
