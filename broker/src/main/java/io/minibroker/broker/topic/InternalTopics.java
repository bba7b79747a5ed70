package io.minibroker.broker.topic;

import java.util.Set;

/** Kafka's internal topics, named once. */
public final class InternalTopics {

    /** Where groups' offsets and metadata live. */
    public static final String CONSUMER_OFFSETS = "__consumer_offsets";
    /** Kafka's transaction log: the transaction coordinator's state. */
    public static final String TRANSACTION_STATE = "__transaction_state";
    /** The share coordinator's state of share partitions (KIP-932). */
    public static final String SHARE_GROUP_STATE = "__share_group_state";

    /** Clients leave these out of topic listings and subscriptions by pattern (Metadata's IsInternal). */
    public static boolean isInternal(String topic) {
        return NAMES.contains(topic);
    }

    /**
     * Kafka's partitionFor of a group id or transactional id: {@code Utils.abs(key.hashCode()) % partitions}, where
     * {@code Utils.abs} maps Integer.MIN_VALUE to 0.
     */
    public static int partitionFor(String key, int partitions) {
        int hash = key.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    private static final Set<String> NAMES = Set.of(CONSUMER_OFFSETS, TRANSACTION_STATE, SHARE_GROUP_STATE);

    private InternalTopics() {
    }
}
