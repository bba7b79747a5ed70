package io.minibroker.broker.group;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A member of a consumer-protocol group (KIP-848), Kafka's ConsumerGroupMember: what it subscribes to and with
 * which assignor, and where its reconciliation stands: its epoch and the one before, the partitions it owns and
 * those it must still revoke. Guarded by its group's lock but for what its timeouts watch ({@link TimedMember}; a
 * classic-protocol member's join and sync tokens are volatile for the same reason).
 */
final class ConsumerGroupMember extends TimedMember {

    /** The epoch a member leaves with for good, and the one a static member leaves with to come back. */
    static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    static final int LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

    final String memberId;
    String instanceId;
    String rackId;
    String clientId = "";
    String clientHost = "";
    List<String> subscribedTopicNames = List.of();
    String subscribedTopicRegex;
    /**
     * The topics the member's principal may describe, as its last heartbeat's authorization said: what its regular
     * expression may match. Not kept in the group's records: after a load, with an authorizer, only the topics the
     * member holds until it heartbeats again (see ConsumerGroupCoordinator.restore).
     */
    Predicate<String> describableTopics = topic -> true;
    String serverAssignor;
    /** Its RebalanceTimeoutMs: how long it has to revoke what it must give up; -1 until it tells. */
    int rebalanceTimeoutMs = -1;
    /** Set for a member that joined through the classic protocol (a mixed group); null for a KIP-848 member. */
    ClassicMetadata classic;

    int memberEpoch;
    int previousMemberEpoch;
    MemberState state = MemberState.STABLE;
    Map<UUID, Set<Integer>> assignedPartitions = TopicAssignment.EMPTY;
    Map<UUID, Set<Integer>> partitionsPendingRevocation = TopicAssignment.EMPTY;
    /**
     * The epoch at which each partition it holds or revokes was assigned to it (Kafka 4.3's assignment epochs): an
     * OffsetCommit at an older member epoch counts for the partitions it held by then. One missing here was assigned
     * at its member epoch (a member migrated from a classic group, or read from a record without them, as Kafka
     * reads those).
     */
    Map<UUID, Map<Integer, Integer>> assignmentEpochs = Map.of();
    /**
     * A classic-protocol member's two rebalance timeouts (Kafka's consumer-group join and sync timers): bumped when
     * the member rejoins, or syncs, after which the timeout watching the old value ends quietly.
     */
    volatile long joinToken;
    volatile long syncToken;
    /** Whether a join timeout is running: one told to rejoin is timed from the first telling (Kafka's IfAbsent). */
    boolean awaitingRejoin;

    /** The epoch at which a partition it holds or revokes was assigned to it; null if it neither holds nor revokes it. */
    Integer assignmentEpoch(UUID topic, int partition) {
        if (!assignedPartitions.getOrDefault(topic, Set.of()).contains(partition)
                && !partitionsPendingRevocation.getOrDefault(topic, Set.of()).contains(partition)) {
            return null;
        }
        return assignmentEpochs.getOrDefault(topic, Map.of()).getOrDefault(partition, memberEpoch);
    }

    /**
     * A static member leaving for now: each partition it keeps counts as assigned at epoch 0, so that an OffsetCommit
     * at any epoch older than the one its instance's next member gets counts for them, as in Kafka 4.3.1.
     */
    void resetAssignmentEpochsToZero() {
        Map<UUID, Map<Integer, Integer>> epochs = new HashMap<>();
        assignedPartitions.forEach((topic, partitions) -> partitions.forEach(partition -> epochs
                .computeIfAbsent(topic, t -> new HashMap<>()).put(partition, 0)));
        assignmentEpochs = epochs;
    }

    /**
     * Adds to {@code into} the topics the member subscribes to: those it names, and those its regular expression
     * matched ({@code regexTopics}, by expression) that its principal may describe.
     */
    void addSubscribedTopics(Map<String, Set<String>> regexTopics, Set<String> into) {
        into.addAll(subscribedTopicNames);
        if (subscribedTopicRegex != null) {
            for (String topic : regexTopics.getOrDefault(subscribedTopicRegex, Set.of())) {
                if (describableTopics.test(topic)) {
                    into.add(topic);
                }
            }
        }
    }

    /**
     * What a classic-protocol member of a consumer group joined with (Kafka's ClassicMemberMetadata): its session
     * timeout and its protocols, name to metadata, in its order of preference.
     */
    record ClassicMetadata(int sessionTimeoutMs, java.util.LinkedHashMap<String, byte[]> protocols) {
    }

    ConsumerGroupMember(String memberId) {
        this.memberId = memberId;
    }

    boolean usesClassicProtocol() {
        return classic != null;
    }

    /** Whether this is a static member that left with epoch -2 and whose instance id may come back. */
    boolean leftTemporarily() {
        return memberEpoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH;
    }
}
