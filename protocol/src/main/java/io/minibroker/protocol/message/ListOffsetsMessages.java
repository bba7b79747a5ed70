package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** ListOffsets (API key 2): request and response bodies, transcribed from the Kafka protocol specification. */
final class ListOffsetsMessages {
    static final MessageSchema REQUEST = message("ListOffsetsRequest", "1-11", "6+",
            field("ReplicaId", INT32, "0+"),
            field("IsolationLevel", INT8, "2+"),
            field("Topics", array(struct("ListOffsetsTopic",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("ListOffsetsPartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("CurrentLeaderEpoch", INT32, "4+").defaultsTo(-1),
                            field("Timestamp", INT64, "0+"))), "0+"))), "0+"),
            field("TimeoutMs", INT32, "10+"));

    static final MessageSchema RESPONSE = message("ListOffsetsResponse", "1-11", "6+",
            field("ThrottleTimeMs", INT32, "2+"),
            field("Topics", array(struct("ListOffsetsTopicResponse",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("ListOffsetsPartitionResponse",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("Timestamp", INT64, "1+").defaultsTo(-1),
                            field("Offset", INT64, "1+").defaultsTo(-1),
                            field("LeaderEpoch", INT32, "4+").defaultsTo(-1))), "0+"))), "0+"));

    private ListOffsetsMessages() {
    }
}
