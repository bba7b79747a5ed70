package io.minibroker.broker.fetch;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What a node answers a consumer's ListOffsets and OffsetForLeaderEpoch for partition 0 of a topic, in the fields
 * that carry a leader epoch, laid out to be compared with what a Kafka 4.3.1 node answered the same probe.
 */
public final class LeaderEpochAnswers {

    private LeaderEpochAnswers() {
    }

    /** ListOffsets v10 for {@code timestamp}, read uncommitted, no current epoch: error, timestamp, offset, epoch. */
    public static List<Object> listOffsets(NodeChannel node, String topic, long timestamp) {
        Struct body = ApiKey.LIST_OFFSETS.request().newMessage().set("ReplicaId", -1).set("IsolationLevel", (byte) 0);
        body.addElement("Topics").set("Name", topic).addElement("Partitions").set("PartitionIndex", 0)
                .set("CurrentLeaderEpoch", -1).set("Timestamp", timestamp);
        Struct partition = send(node, ApiKey.LIST_OFFSETS, (short) 10, body).getStructs("Topics").get(0)
                .getStructs("Partitions").get(0);
        return List.of((int) partition.getInt16("ErrorCode"), partition.getInt64("Timestamp"),
                partition.getInt64("Offset"), partition.getInt32("LeaderEpoch"));
    }

    /** A consumer's OffsetForLeaderEpoch v4 for {@code epoch}, no current epoch: error, epoch, end offset. */
    public static List<Object> endOffsetFor(NodeChannel node, String topic, int epoch) {
        Struct body = ApiKey.OFFSET_FOR_LEADER_EPOCH.request().newMessage().set("ReplicaId", -1);
        body.addElement("Topics").set("Topic", topic).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", -1).set("LeaderEpoch", epoch);
        Struct partition = send(node, ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4, body).getStructs("Topics").get(0)
                .getStructs("Partitions").get(0);
        return List.of((int) partition.getInt16("ErrorCode"), partition.getInt32("LeaderEpoch"),
                partition.getInt64("EndOffset"));
    }

    private static Struct send(NodeChannel node, ApiKey api, short version, Struct body) {
        try {
            return node.send(api, version, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
