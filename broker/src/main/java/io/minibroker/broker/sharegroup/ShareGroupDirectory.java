package io.minibroker.broker.sharegroup;

import java.util.Optional;

/**
 * What the data side of share groups (ShareFetch, ShareAcknowledge, the share partitions) asks of the membership
 * side: a group's effective configuration and whether a member id belongs to a share group right now. Answers come
 * from this broker's coordinator; a group this broker does not coordinate is unknown here.
 */
public interface ShareGroupDirectory {

    /**
     * The group's configuration: its GROUP config overrides (IncrementalAlterConfigs, resource type GROUP) over the
     * broker's {@code group.share.*} defaults. Defined for any group id, even one with no members yet, as Kafka
     * resolves a group config before the group exists.
     */
    ShareGroupSettings settings(String groupId);

    /** Whether {@code memberId} is a current member of share group {@code groupId} (joined and not yet left or expired). */
    boolean isMember(String groupId, String memberId);

    /** The share group's current epoch, empty if no share group of that id is known on this broker. */
    Optional<Integer> groupEpoch(String groupId);
}
