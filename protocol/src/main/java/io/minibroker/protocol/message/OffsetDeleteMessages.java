package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** OffsetDelete (API key 47): request and response bodies, transcribed from the Kafka protocol specification. */
final class OffsetDeleteMessages {
    static final MessageSchema REQUEST = message("OffsetDeleteRequest", "0", "none",
            field("GroupId", STRING, "0+"),
            field("Topics", array(struct("OffsetDeleteRequestTopic",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("OffsetDeleteRequestPartition",
                            field("PartitionIndex", INT32, "0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("OffsetDeleteResponse", "0", "none",
            field("ErrorCode", INT16, "0+"),
            field("ThrottleTimeMs", INT32, "0+"),
            field("Topics", array(struct("OffsetDeleteResponseTopic",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("OffsetDeleteResponsePartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"))), "0+"))), "0+"));

    private OffsetDeleteMessages() {
    }
}
