package io.minibroker.broker.share;

/**
 * Whether a share group exists and has members, as the offsets admin APIs ask it (Kafka: GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP). The membership side provides it ({@code group/GroupCoordinator.shareGroupMembership}): as in
 * Kafka, a group exists only once the coordinator knows it, whatever share sessions or share state the data side has.
 */
@FunctionalInterface
public interface ShareGroupMembership {

    enum Status { UNKNOWN, EMPTY, HAS_MEMBERS }

    Status status(String groupId);
}
