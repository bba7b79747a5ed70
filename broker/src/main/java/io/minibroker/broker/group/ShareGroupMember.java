package io.minibroker.broker.group;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A member of a share group (KIP-932), Kafka's ShareGroupMember: its epoch (the group's assignment epoch it last
 * heartbeated at), the topics it subscribes to and the partitions assigned to it. A share group needs no
 * reconciliation: a partition may be assigned to several members at once, so a member takes its target at once.
 */
final class ShareGroupMember extends TimedMember {

    /** The epoch a member sends to leave the group, as ShareGroupHeartbeat defines it. */
    static final int LEAVE_GROUP_MEMBER_EPOCH = -1;
    /** Kafka's MemberState.STABLE, the only state a share-group member is in. */
    static final byte STABLE = 0;

    final String memberId;
    int memberEpoch;
    int previousMemberEpoch;
    String rackId;
    String clientId = "";
    String clientHost = "";
    List<String> subscribedTopicNames = List.of();
    Map<UUID, Set<Integer>> assignedPartitions = Map.of();

    ShareGroupMember(String memberId) {
        this.memberId = memberId;
    }
}
