package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DeleteRecords (API key 21): request and response bodies, transcribed from the Kafka protocol specification. */
final class DeleteRecordsMessages {
    static final MessageSchema REQUEST = message("DeleteRecordsRequest", "0-2", "2+",
            field("Topics", array(struct("DeleteRecordsTopic",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("DeleteRecordsPartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("Offset", INT64, "0+"))), "0+"))), "0+"),
            field("TimeoutMs", INT32, "0+"));

    static final MessageSchema RESPONSE = message("DeleteRecordsResponse", "0-2", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Topics", array(struct("DeleteRecordsTopicResult",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("DeleteRecordsPartitionResult",
                            field("PartitionIndex", INT32, "0+"),
                            field("LowWatermark", INT64, "0+"),
                            field("ErrorCode", INT16, "0+"))), "0+"))), "0+"));

    private DeleteRecordsMessages() {
    }
}
