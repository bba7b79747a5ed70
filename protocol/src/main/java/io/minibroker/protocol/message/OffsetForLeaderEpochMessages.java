package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** OffsetForLeaderEpoch (API key 23): request and response bodies, transcribed from the Kafka protocol specification. */
final class OffsetForLeaderEpochMessages {
    static final MessageSchema REQUEST = message("OffsetForLeaderEpochRequest", "2-4", "4+",
            field("ReplicaId", INT32, "3+").defaultsTo(-2),
            field("Topics", array(struct("OffsetForLeaderTopic",
                    field("Topic", STRING, "0+"),
                    field("Partitions", array(struct("OffsetForLeaderPartition",
                            field("Partition", INT32, "0+"),
                            field("CurrentLeaderEpoch", INT32, "2+").defaultsTo(-1),
                            field("LeaderEpoch", INT32, "0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("OffsetForLeaderEpochResponse", "2-4", "4+",
            field("ThrottleTimeMs", INT32, "2+"),
            field("Topics", array(struct("OffsetForLeaderTopicResult",
                    field("Topic", STRING, "0+"),
                    field("Partitions", array(struct("EpochEndOffset",
                            field("ErrorCode", INT16, "0+"),
                            field("Partition", INT32, "0+"),
                            field("LeaderEpoch", INT32, "1+").defaultsTo(-1),
                            field("EndOffset", INT64, "0+").defaultsTo(-1))), "0+"))), "0+"));

    private OffsetForLeaderEpochMessages() {
    }
}
