package io.minibroker.broker.quorum;

import io.minibroker.broker.topic.TopicIds;

import java.util.UUID;

/**
 * A replica of the metadata partition as Kafka's KRaft names one (its ReplicaKey): the node's id and the directory id
 * of its metadata log directory, {@link #NO_DIRECTORY} for none. Printed as Kafka's messages print it.
 */
public record ReplicaKey(int id, UUID directoryId) {

    /**
     * No directory id: the zero id, as a static quorum ({@code controller.quorum.voters}, kraft.version 0) knows its
     * voters by their ids alone. What DescribeQuorum shows for such a voter, and what AddRaftVoter and RemoveRaftVoter,
     * as Kafka's, take for no voter at all.
     */
    public static final UUID NO_DIRECTORY = new UUID(0, 0);

    /** Kafka's form, its directory id in Kafka's text for ids (what {@code meta.properties} holds). */
    @Override
    public String toString() {
        return "ReplicaKey(id=" + id + ", directoryId=" + TopicIds.toText(directoryId) + ")";
    }
}
