package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletionStage;

/**
 * Whether a share group exists and has members, as the offsets admin APIs ask it (Kafka: GROUP_ID_NOT_FOUND,
 * NON_EMPTY_GROUP). The membership side provides it ({@code group/GroupCoordinator.shareGroupMembership}): as in
 * Kafka, a group exists only once the coordinator knows it, whatever share sessions or share state the data side has.
 */
public interface ShareGroupMembership {

    enum Status { UNKNOWN, EMPTY, HAS_MEMBERS }

    Status status(String groupId);

    /**
     * Makes an empty share group of that id if there is none, as Kafka's AlterShareGroupOffsets does: NONE once it
     * exists (written to the group's records), GROUP_ID_NOT_FOUND if the id names a group of another type, or the
     * coordinator's error.
     */
    CompletionStage<Errors> createIfAbsent(String groupId);
}
