package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
    /**
     * The {@link MetadataHash} of the topology's required topics when it was last configured, as Kafka keeps it in
     * the group's metadata record: a heartbeat that finds another configures the topology again and bumps the epoch,
     * after a load too.
     */
    long metadataHash;
    /** The epoch of the topology last found ready; -1 if none was (Kafka's validatedTopologyEpoch). */
    int validatedTopologyEpoch = -1;
    /** The standby replicas the target was last computed with (Kafka's last assignment configs); -1 before. */
    int numStandbyReplicas = -1;
    /** Moves on whenever a member's tasks change, so that members learn the endpoints' new partitions. */
    int endpointInformationEpoch;
    /** A member that asked for the whole application to shut down; told to every member from then on. */
    String shutdownRequestMemberId;
    final Map<String, StreamsGroupMember> members = new LinkedHashMap<>();
    /** Each member's target assignment, at {@link #assignmentEpoch}. */
    final Map<String, StreamsTasks> targetAssignment = new HashMap<>();
    /** The group's records as last written to {@code __consumer_offsets}, by key ({@link StreamsGroupRecords}). */
    Map<ByteBuffer, byte[]> written = new LinkedHashMap<>();
    private boolean dead;

    StreamsGroup(String groupId) {
        this.groupId = groupId;
        this.groupEpoch = ConsumerGroup.NEW_GROUP_EPOCH;
        this.assignmentEpoch = ConsumerGroup.NEW_GROUP_EPOCH;
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
     * ids: a task is held while assigned to a member or pending its revocation. {@code reconciling}'s own tasks are
     * left out: what it is still asked to revoke it has not reported revoked, and what it reported revoked is free
     * for it to take back.
     */
    Owners owners(String reconciling) {
        Owners owners = new Owners();
        for (StreamsGroupMember member : members.values()) {
            if (member.memberId.equals(reconciling)) {
                continue;
            }
            for (StreamsTasks tasks : new StreamsTasks[] {member.assignedTasks, member.tasksPendingRevocation}) {
                tasks.active().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.active.put(new TaskId(sub, p), member.processId)));
                tasks.standby().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.others.computeIfAbsent(new TaskId(sub, p), k -> new HashSet<>()).add(member.processId)));
                tasks.warmup().forEach((sub, partitions) -> partitions.forEach(
                        p -> owners.others.computeIfAbsent(new TaskId(sub, p), k -> new HashSet<>()).add(member.processId)));
            }
        }
        return owners;
    }

    /** The processes holding each task: the active copy's, and those of its standby and warm-up copies. */
    static final class Owners {
        final Map<TaskId, String> active = new HashMap<>();
        final Map<TaskId, Set<String>> others = new HashMap<>();

        String activeProcess(String subtopologyId, int partition) {
            return active.get(new TaskId(subtopologyId, partition));
        }

        boolean otherCopyOn(String subtopologyId, int partition, String processId) {
            return others.getOrDefault(new TaskId(subtopologyId, partition), Set.of()).contains(processId);
        }
    }

    /**
     * Kafka's StreamsGroup.validateOffsetCommit: a commit without a member epoch (an admin client) only while the
     * group has no member, or a TxnOffsetCommit with none of the member fields; otherwise from a member
     * (UNKNOWN_MEMBER_ID) with OffsetCommit v9+ (UNSUPPORTED_VERSION before), at its current epoch, or at an older one
     * for tasks it held by then (else STALE_MEMBER_EPOCH).
     */
    Errors validateOffsetCommit(OffsetCommit commit) {
        if (commit.generationId() < 0 && members.isEmpty()) {
            return Errors.NONE;
        }
        if (commit.transactional() && commit.generationId() == -1 && commit.memberId().isEmpty()
                && commit.groupInstanceId() == null) {
            return Errors.NONE;
        }
        StreamsGroupMember member = members.get(commit.memberId());
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (!commit.transactional() && commit.version() < ConsumerGroup.OFFSET_COMMIT_MEMBER_EPOCH_VERSION) {
            return Errors.UNSUPPORTED_VERSION;
        }
        if (commit.generationId() == member.memberEpoch) {
            return Errors.NONE;
        }
        if (commit.generationId() > member.memberEpoch || topology == null) {
            return Errors.STALE_MEMBER_EPOCH;
        }
        // An older epoch (Kafka 4.3's assignment epoch validator): each partition must be of a task the member holds
        // or revokes, assigned to it at or before that epoch; one that is not refuses the whole commit.
        for (TopicPartition partition : commit.offsets().keySet()) {
            Integer assignedAt = subtopologyReading(partition.topic())
                    .map(sub -> member.activeTaskEpochs.get(new TaskId(sub, partition.partition()))).orElse(null);
            if (assignedAt == null || commit.generationId() < assignedAt) {
                return Errors.STALE_MEMBER_EPOCH;
            }
        }
        return Errors.NONE;
    }

    /** The subtopology of the topology that reads {@code topic} (a source or repartition source topic). */
    private Optional<String> subtopologyReading(String topic) {
        return topology.subtopologies().values().stream().filter(sub -> sub.inputTopics().contains(topic))
                .map(StreamsTopology.Subtopology::id).findFirst();
    }

    /** Kafka's StreamsGroup.validateOffsetFetch: anyone naming no member; a member only at its epoch. */
    Errors validateOffsetFetch(String memberId, int memberEpoch) {
        if (memberId == null && memberEpoch < 0) {
            return Errors.NONE;
        }
        StreamsGroupMember member = memberId == null ? null : members.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return memberEpoch == member.memberEpoch ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
    }

    /**
     * The topics whose commits the group still needs, Kafka's StreamsGroup.isSubscribedToTopic: its topology's input
     * topics while it has members, none once it is empty. The caller holds its lock.
     */
    Set<String> subscribedTopics() {
        return members.isEmpty() || topology == null ? Set.of() : topology.inputTopics();
    }

    boolean isDead() {
        return dead;
    }

    void markDead() {
        dead = true;
    }
}
