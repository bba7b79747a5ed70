package io.minibroker.broker.feature;

/**
 * The features a Kafka 4.3.1 node supports, each with the range of levels it supports and the level a storage
 * formatted with the defaults finalizes (checked against one: {@code kafka-storage format} writes these, and its
 * ApiVersions advertises these ranges). A level of 0 is "not finalized": ApiVersions leaves the feature out of its
 * finalized list, as Kafka does.
 */
public enum Feature {
    /** From 3.3-IV3 (7), the first a KRaft node still reads, to 4.3-IV0 (30). */
    METADATA_VERSION("metadata.version", 7, 30, 30),
    /**
     * 0 as a storage formatted with {@code controller.quorum.voters} (a static quorum) finalizes it; 1 once upgraded,
     * when the quorum knows its voters by their directory ids too ({@code quorum/VoterSet}). Never downgraded.
     */
    KRAFT_VERSION("kraft.version", 0, 1, 0),
    GROUP_VERSION("group.version", 0, 1, 1),
    SHARE_VERSION("share.version", 0, 1, 1),
    STREAMS_VERSION("streams.version", 0, 1, 1),
    /** The default level here is {@code minibroker.transaction.version}'s, Kafka's format flag. */
    TRANSACTION_VERSION("transaction.version", 0, 2, 2),
    ELIGIBLE_LEADER_REPLICAS_VERSION("eligible.leader.replicas.version", 0, 1, 1);

    private final String featureName;
    private final short minSupported;
    private final short maxSupported;
    private final short defaultLevel;

    Feature(String featureName, int minSupported, int maxSupported, int defaultLevel) {
        this.featureName = featureName;
        this.minSupported = (short) minSupported;
        this.maxSupported = (short) maxSupported;
        this.defaultLevel = (short) defaultLevel;
    }

    /** Kafka's name of the feature, as clients and tools send it. */
    public String featureName() {
        return featureName;
    }

    public short minSupported() {
        return minSupported;
    }

    public short maxSupported() {
        return maxSupported;
    }

    short defaultLevel() {
        return defaultLevel;
    }

    /** The feature of that name, or null for one a Kafka 4.3.1 node does not know. */
    public static Feature named(String name) {
        for (Feature feature : values()) {
            if (feature.featureName.equals(name)) {
                return feature;
            }
        }
        return null;
    }
}
