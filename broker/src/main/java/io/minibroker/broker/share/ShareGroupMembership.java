package io.minibroker.broker.share;

/**
 * Whether a share group exists and has members, as the offsets admin APIs ask it (Kafka: GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP). The membership side provides it ({@code group/GroupCoordinator.shareGroupMembership}); for a
 * group it does not know, {@link #fromSessions} answers from what the data side sees.
 */
@FunctionalInterface
public interface ShareGroupMembership {

    enum Status { UNKNOWN, EMPTY, HAS_MEMBERS }

    Status status(String groupId);

    /**
     * A group has members while one of them has a share session open, and exists while it has share-partition
     * state: the data side's view, for share sessions opened without the group's heartbeats.
     */
    static ShareGroupMembership fromSessions(ShareSessionCache sessions, SharePartitionManager partitions) {
        return groupId -> {
            if (sessions.hasSessions(groupId)) {
                return Status.HAS_MEMBERS;
            }
            return partitions.keysOf(groupId).isEmpty() ? Status.UNKNOWN : Status.EMPTY;
        };
    }
}
