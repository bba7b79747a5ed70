package io.minibroker.broker.group;

import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * KIP-848's online migration between the two kinds of group, as Kafka's GroupMetadataManager does it
 * ({@code group.consumer.migration.policy}): a classic group with members becomes a consumer group when a
 * consumer-protocol member joins it (its members stay, as classic-protocol members, at their generation and with
 * their assignment), and a consumer group whose last consumer-protocol member leaves becomes a classic group again,
 * which rebalances at once so that its members rejoin through the classic protocol.
 */
final class ConsumerGroupMigration {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupMigration.class);

    private final boolean upgradeEnabled;
    private final boolean downgradeEnabled;
    /** Policy {@code disabled}: classic members may not join a consumer group at all. */
    private final boolean disabled;
    private final ConsumerGroups groups;
    private final ClassicGroupCoordinator membership;
    private final TopicRegistry topics;
    private final ConsumerGroupCoordinator consumers;

    ConsumerGroupMigration(String policy, ConsumerGroups groups, ClassicGroupCoordinator membership, TopicRegistry topics,
                           ConsumerGroupCoordinator consumers) {
        this.upgradeEnabled = policy.equals("bidirectional") || policy.equals("upgrade");
        this.downgradeEnabled = policy.equals("bidirectional") || policy.equals("downgrade");
        this.disabled = policy.equals("disabled");
        this.groups = groups;
        this.membership = membership;
        this.topics = topics;
        this.consumers = consumers;
    }

    /**
     * Why a classic member may not join consumer group {@code groupId}, or null: Kafka's
     * throwIfClassicMemberCannotJoinConsumerGroup refuses only under the {@code disabled} policy (under
     * {@code upgrade} a classic member still joins; the policy then only keeps the group from going back).
     */
    String classicJoinRefusal(String groupId) {
        return disabled ? "Cannot join the consumer group " + groupId
                + " with the classic protocol because the group migration is disabled." : null;
    }

    /**
     * Kafka's validateOnlineUpgrade and convertToConsumerGroup, for a classic group with members (the caller holds
     * its lock, on the coordinator's thread): the consumer group that replaces it is listed, and the classic one
     * released. Returns null, or why the upgrade is refused (Kafka's messages; the member gets GROUP_ID_NOT_FOUND).
     */
    String upgrade(ClassicGroup classic, int maxSize) {
        String cannot = "Cannot upgrade classic group " + classic.groupId + " to consumer group because ";
        if (!upgradeEnabled) {
            return cannot + "the online upgrade is disabled.";
        }
        if (!ConsumerSubscription.PROTOCOL_TYPE.equals(classic.protocolType)) {
            return cannot + "the group does not use the consumer embedded protocol.";
        }
        if (classic.members.size() > maxSize) {
            return cannot + "the group size exceeds the consumer group maximum size.";
        }
        ConsumerGroup group = new ConsumerGroup(classic.groupId);
        try {
            for (GroupMember each : classic.members.values()) {
                ConsumerGroupMember member = fromClassic(each, classic);
                group.add(member);
                group.targetAssignment.put(member.memberId, member.assignedPartitions);
            }
        } catch (ProtocolException e) {
            return cannot + "the embedded consumer protocol is malformed.";
        }
        group.groupEpoch = classic.generationId;
        group.assignmentEpoch = classic.generationId;
        group.replacesClassicGroup = true;
        membership.release(classic);
        groups.restored(group);
        synchronized (group) {
            group.allMembers().forEach(member -> consumers.sessionAlive(group, member));
        }
        return null;
    }

    /**
     * An empty classic group (the caller holds its lock) gives way to a consumer group of that id, whose first write
     * tombstones the classic metadata, as Kafka's maybeDeleteEmptyClassicGroup adds the tombstone to the join's
     * records.
     */
    void releaseEmpty(ClassicGroup classic) {
        ConsumerGroup group = new ConsumerGroup(classic.groupId);
        group.replacesClassicGroup = true;
        membership.release(classic);
        groups.restored(group);
    }

    /** A classic member as a classic-protocol member of the consumer group, at the classic group's generation. */
    private ConsumerGroupMember fromClassic(GroupMember classicMember, ClassicGroup classic) {
        ConsumerGroupMember member = new ConsumerGroupMember(classicMember.memberId);
        member.instanceId = classicMember.groupInstanceId;
        member.clientId = classicMember.clientId;
        member.clientHost = classicMember.clientHost;
        member.rebalanceTimeoutMs = classicMember.rebalanceTimeoutMs;
        member.classic = new ConsumerGroupMember.ClassicMetadata(classicMember.sessionTimeoutMs,
                new LinkedHashMap<>(classicMember.protocols));
        byte[] metadata = classic.protocolName != null && classicMember.protocols.containsKey(classic.protocolName)
                ? classicMember.protocols.get(classic.protocolName)
                : classicMember.protocols.values().iterator().next();
        ConsumerProtocol.Subscription subscription = ConsumerProtocol.subscription(metadata);
        member.subscribedTopicNames = subscription.topics().stream().distinct().sorted().toList();
        member.rackId = subscription.rackId();
        member.assignedPartitions = byId(ConsumerProtocol.assignment(classicMember.assignment));
        member.memberEpoch = classic.generationId;
        member.previousMemberEpoch = classic.generationId;
        member.state = MemberState.STABLE;
        return member;
    }

    /**
     * A member leaving or fenced (the caller holds the group's lock, on the coordinator's thread): if every other
     * member speaks the classic protocol and the policy allows it, the group becomes, without it, a classic group at
     * the group epoch (Kafka's validateOnlineDowngradeWithFencedMember and convertToClassicGroup), which rebalances;
     * not if more would stay than {@code group.max.size}, as Kafka. Returns whether it did; if not, the caller removes the member as usual.
     */
    boolean downgradeWithout(ConsumerGroup group, ConsumerGroupMember leaving) {
        List<ConsumerGroupMember> staying = group.allMembers().stream().filter(m -> m != leaving).toList();
        if (!downgradeEnabled || staying.isEmpty()
                || !staying.stream().allMatch(ConsumerGroupMember::usesClassicProtocol)) {
            return false;
        }
        if (staying.size() > membership.maxSize()) {
            LOG.info("Cannot downgrade consumer group {} to classic group because its group size is greater than"
                    + " classic group max size.", group.groupId);
            return false;
        }
        String protocol = commonProtocol(staying);
        if (protocol == null) {
            return false;
        }
        List<GroupMetadataRecord.StoredMember> members = new ArrayList<>();
        for (ConsumerGroupMember member : staying) {
            members.add(new GroupMetadataRecord.StoredMember(member.memberId, member.instanceId, member.clientId,
                    member.clientHost, member.rebalanceTimeoutMs, member.classic.sessionTimeoutMs(),
                    member.classic.protocols().get(protocol),
                    ConsumerProtocol.assignmentBytes(byName(member.assignedPartitions))));
        }
        GroupMetadataRecord.StoredGroup stored = new GroupMetadataRecord.StoredGroup(
                ConsumerSubscription.PROTOCOL_TYPE, group.groupEpoch, protocol, members.get(0).memberId(), -1,
                members);
        consumers.replaceWithClassic(group, stored);
        membership.adopt(ClassicGroup.restored(group.groupId, stored));
        return true;
    }

    /** The first protocol of the first member that every member supports, as a classic group selects one. */
    private static String commonProtocol(List<ConsumerGroupMember> members) {
        for (String name : members.get(0).classic.protocols().keySet()) {
            if (members.stream().allMatch(m -> m.classic.protocols().containsKey(name))) {
                return name;
            }
        }
        return null;
    }

    /** Partitions by topic name as topic ids; topics this broker does not know are left out. */
    Map<UUID, Set<Integer>> byId(Map<String, Set<Integer>> byName) {
        Map<UUID, Set<Integer>> partitions = new HashMap<>();
        byName.forEach((name, numbers) -> {
            Optional<TopicMetadata> topic = topics.known(name);
            topic.ifPresent(t -> partitions.put(t.id(), numbers));
        });
        return TopicAssignment.copyOf(partitions);
    }

    /** Partitions by topic id as topic names; topics no longer known are left out. */
    Map<String, Set<Integer>> byName(Map<UUID, Set<Integer>> byId) {
        Map<String, Set<Integer>> partitions = new TreeMap<>();
        byId.forEach((id, numbers) -> topics.known(id).ifPresent(t -> partitions.put(t.name(), numbers)));
        return partitions;
    }
}
