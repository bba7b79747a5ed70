package io.minibroker.broker.share;

/**
 * The share groups' configuration as the data side reads it; the membership side (share-group coordinator and
 * group configs) provides it.
 */
@FunctionalInterface
public interface ShareGroupConfigs {

    /** The settings in force for {@code groupId} now; the broker's defaults for a group without configs. */
    ShareGroupSettings settings(String groupId);
}
