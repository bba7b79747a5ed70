package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.protocol.error.Errors;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A consumer-protocol group (KIP-848), Kafka's ConsumerGroup: the group epoch (bumped whenever the members or what
 * they subscribe to change), the target assignment computed at the assignment epoch, the members reconciling
 * towards it, and the topics their subscriptions resolve to now (the subscription metadata, whose change bumps the
 * epoch too). Guarded by its own monitor, as a classic group is.
 */
final class ConsumerGroup {

    /** Kafka's ConsumerGroupState, as DescribeGroups, ListGroups and ConsumerGroupDescribe name it. */
    enum State {
        EMPTY("Empty"), ASSIGNING("Assigning"), RECONCILING("Reconciling"), STABLE("Stable"), DEAD("Dead");

        final String displayName;

        State(String displayName) {
            this.displayName = displayName;
        }
    }

    /**
     * A subscribed topic as the target assignment saw it, with its {@link MetadataHash} (id, name, partitions and
     * their replicas' racks): a change of it changes the group's {@link #metadataHash} and bumps the group epoch.
     */
    record SubscribedTopic(UUID id, String name, int partitions, long hash) {
        static SubscribedTopic of(TopicMetadata topic, TopicHashCache hashes) {
            return new SubscribedTopic(topic.id(), topic.name(), topic.partitions(), hashes.of(topic));
        }
    }

    /**
     * The group and assignment epoch a new consumer, share or streams group starts at, with an empty assignment, as
     * Kafka 4.3's (KAFKA-20268): its first computed assignment, and so its first member's epoch, is 2. Member epoch 0
     * stays the one a joining member sends, and a new group's epoch 1 is never written: its first write bumps it.
     */
    static final int NEW_GROUP_EPOCH = 1;

    /** The first OffsetCommit version a KIP-848 member may commit with (its generation field, a member epoch). */
    static final int OFFSET_COMMIT_MEMBER_EPOCH_VERSION = 9;

    final String groupId;
    int groupEpoch;
    int assignmentEpoch;
    final Map<String, ConsumerGroupMember> members = new LinkedHashMap<>();
    /** Static members' member ids, by instance id. */
    final Map<String, String> staticMembers = new HashMap<>();
    /** Each member's target assignment, at {@link #assignmentEpoch}. */
    final Map<String, Map<UUID, Set<Integer>>> targetAssignment = new HashMap<>();
    /** The topics the members subscribe to, by name, as the last target assignment was computed for. */
    Map<String, SubscribedTopic> subscriptionMetadata = Map.of();
    /**
     * The {@link MetadataHash} of the subscribed topics the group epoch was last bumped for (0: none, or a group
     * written before this was kept), as Kafka keeps it in the group's metadata record: a heartbeat that finds the
     * topics' hash differ, whether they changed while this coordinator ran or before it loaded the group, bumps the
     * epoch.
     */
    long metadataHash;
    /**
     * What heartbeats need not compute again while the known topics stay as they were (Kafka keeps the group's
     * subscribed topic names and a hash of their metadata for the same purpose): the members' regexes resolved, the
     * subscribed names the metadata was last looked up for, both at {@code topicsVersion} of the topic registry.
     */
    long topicsVersion = -1;
    Map<String, Set<String>> resolvedRegexes = Map.of();
    Set<String> subscribedNames = Set.of();
    /** The group's records as last written to {@code __consumer_offsets}, by key ({@link ConsumerGroupRecords}). */
    Map<java.nio.ByteBuffer, byte[]> written = new LinkedHashMap<>();
    /**
     * Set when it took a classic group's id (upgraded, or in place of an empty one): its next write deletes the
     * classic group's metadata record.
     */
    boolean replacesClassicGroup;
    private boolean dead;

    ConsumerGroup(String groupId) {
        this.groupId = groupId;
        this.groupEpoch = NEW_GROUP_EPOCH;
        this.assignmentEpoch = NEW_GROUP_EPOCH;
    }

    State state() {
        if (dead) {
            return State.DEAD;
        }
        if (members.isEmpty()) {
            return State.EMPTY;
        }
        if (groupEpoch > assignmentEpoch) {
            return State.ASSIGNING;
        }
        for (ConsumerGroupMember member : members.values()) {
            if (member.memberEpoch != assignmentEpoch || member.state != MemberState.STABLE) {
                return State.RECONCILING;
            }
        }
        return State.STABLE;
    }

    boolean isDead() {
        return dead;
    }

    /** Marks the group deleted or unloaded: whoever holds it sees it gone and looks again. */
    void markDead() {
        dead = true;
    }

    void add(ConsumerGroupMember member) {
        members.put(member.memberId, member);
        if (member.instanceId != null) {
            staticMembers.put(member.instanceId, member.memberId);
        }
    }

    void remove(String memberId) {
        ConsumerGroupMember member = members.remove(memberId);
        if (member != null && member.instanceId != null) {
            staticMembers.remove(member.instanceId, memberId);
        }
        targetAssignment.remove(memberId);
    }

    ConsumerGroupMember staticMember(String instanceId) {
        String memberId = staticMembers.get(instanceId);
        return memberId == null ? null : members.get(memberId);
    }

    /**
     * Kafka's check of a request naming a static member (validateConsumerGroupMember, throwIfInstanceIdIsFenced):
     * UNKNOWN_MEMBER_ID if no member holds {@code instanceId}, FENCED_INSTANCE_ID if one under another member id
     * does (the request's is a zombie of a process that was replaced), NONE if {@code memberId} holds it.
     */
    Errors instanceHolderCheck(String memberId, String instanceId) {
        return holderCheck(staticMember(instanceId), memberId);
    }

    /** {@link #instanceHolderCheck} of the instance's {@code holder} ({@link #staticMember}, null if none). */
    static Errors holderCheck(ConsumerGroupMember holder, String memberId) {
        if (holder == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return holder.memberId.equals(memberId) ? Errors.NONE : Errors.FENCED_INSTANCE_ID;
    }

    /**
     * Kafka's ConsumerGroup.supportsClassicProtocols: whether a classic JoinGroup offering these protocols may join:
     * protocol type "consumer", and one protocol name every classic-protocol member supports (the joining member's
     * own earlier offer included; any name while no member is classic). An empty group takes any non-empty offer.
     */
    boolean supportsClassicProtocols(String protocolType, Set<String> protocols) {
        if (!ConsumerSubscription.PROTOCOL_TYPE.equals(protocolType)) {
            return false;
        }
        if (members.isEmpty()) {
            return !protocols.isEmpty();
        }
        return protocols.stream().anyMatch(name -> members.values().stream()
                .filter(ConsumerGroupMember::usesClassicProtocol)
                .allMatch(member -> member.classic.protocols().containsKey(name)));
    }

    Map<UUID, Set<Integer>> targetOf(String memberId) {
        return targetAssignment.getOrDefault(memberId, TopicAssignment.EMPTY);
    }

    /**
     * Which member owns each partition now, assigned or still to revoke (Kafka's currentPartitionEpoch): a
     * partition is given to its next owner only once it is in nobody's hands.
     */
    Map<UUID, Map<Integer, String>> owners() {
        Map<UUID, Map<Integer, String>> owners = new HashMap<>();
        for (ConsumerGroupMember member : members.values()) {
            own(owners, member.assignedPartitions, member.memberId);
            own(owners, member.partitionsPendingRevocation, member.memberId);
        }
        return owners;
    }

    private static void own(Map<UUID, Map<Integer, String>> owners, Map<UUID, Set<Integer>> partitions,
                            String memberId) {
        partitions.forEach((topic, numbers) -> numbers.forEach(partition ->
                owners.computeIfAbsent(topic, t -> new HashMap<>()).put(partition, memberId)));
    }

    /** Every topic name some member subscribes to, by name or (resolved) by regex. */
    Set<String> subscribedTopicNames(Map<String, Set<String>> regexTopics) {
        Set<String> names = new TreeSet<>();
        for (ConsumerGroupMember member : members.values()) {
            member.addSubscribedTopics(regexTopics, names);
        }
        return names;
    }

    /**
     * Kafka's ConsumerGroup.validateOffsetCommit: a commit without a member epoch (an admin client, a consumer
     * without group management) only while the group has no member, or a TxnOffsetCommit with none of the member
     * fields (a producer that knows only the group id, TxnOffsetCommit before v3); otherwise from a member at its
     * current epoch, or at an older one if every partition is one it holds or revokes and was assigned at or before
     * that epoch (Kafka 4.3's createAssignmentEpochValidator: a commit sent just before the member's epoch moved on
     * still counts for what it kept), else STALE_MEMBER_EPOCH for the whole commit (ILLEGAL_GENERATION for a
     * classic-protocol member, which knows generations); an OffsetCommit before v9 from a KIP-848 member is
     * UNSUPPORTED_VERSION.
     */
    Errors validateOffsetCommit(OffsetCommit commit) {
        String memberId = commit.memberId();
        int memberEpoch = commit.generationId();
        if (memberEpoch < 0 && members.isEmpty()) {
            return Errors.NONE;
        }
        if (commit.transactional() && memberEpoch == -1 && memberId.isEmpty() && commit.groupInstanceId() == null) {
            return Errors.NONE;
        }
        ConsumerGroupMember member = members.get(memberId);
        if (member == null || member.leftTemporarily()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (!commit.transactional() && !member.usesClassicProtocol()
                && commit.version() < OFFSET_COMMIT_MEMBER_EPOCH_VERSION) {
            return Errors.UNSUPPORTED_VERSION;
        }
        if (memberEpoch == member.memberEpoch) {
            return Errors.NONE;
        }
        Errors stale = member.usesClassicProtocol() ? Errors.ILLEGAL_GENERATION : Errors.STALE_MEMBER_EPOCH;
        if (memberEpoch > member.memberEpoch) {
            return stale;
        }
        for (TopicPartition partition : commit.offsets().keySet()) {
            SubscribedTopic topic = subscriptionMetadata.get(partition.topic());
            Integer assignedAt = topic == null ? null : member.assignmentEpoch(topic.id(), partition.partition());
            if (assignedAt == null || memberEpoch < assignedAt) {
                return stale;
            }
        }
        return Errors.NONE;
    }

    /**
     * Kafka's ConsumerGroup.validateOffsetFetch: an OffsetFetch naming neither a member id nor an epoch (v9+: an
     * admin client, or a client outside the group) may always fetch; one naming a member must come from it at its
     * epoch, ILLEGAL_GENERATION for a classic-protocol member as for its commits, STALE_MEMBER_EPOCH otherwise.
     */
    Errors validateOffsetFetch(String memberId, int memberEpoch) {
        if (memberId == null && memberEpoch < 0) {
            return Errors.NONE;
        }
        ConsumerGroupMember member = memberId == null ? null : members.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (memberEpoch == member.memberEpoch) {
            return Errors.NONE;
        }
        return member.usesClassicProtocol() ? Errors.ILLEGAL_GENERATION : Errors.STALE_MEMBER_EPOCH;
    }

    Collection<ConsumerGroupMember> allMembers() {
        return members.values();
    }
}
