package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** WriteTxnMarkers (API key 27): request and response bodies, transcribed from the Kafka protocol specification. */
final class WriteTxnMarkersMessages {
    static final MessageSchema REQUEST = message("WriteTxnMarkersRequest", "1-2", "1+",
            field("Markers", array(struct("WritableTxnMarker",
                    field("ProducerId", INT64, "0+"),
                    field("ProducerEpoch", INT16, "0+"),
                    field("TransactionResult", BOOL, "0+"),
                    field("Topics", array(struct("WritableTxnMarkerTopic",
                            field("Name", STRING, "0+"),
                            field("PartitionIndexes", array(INT32), "0+"))), "0+"),
                    field("CoordinatorEpoch", INT32, "0+"),
                    field("TransactionVersion", INT8, "2+").defaultsTo(0))), "0+"));

    static final MessageSchema RESPONSE = message("WriteTxnMarkersResponse", "1-2", "1+",
            field("Markers", array(struct("WritableTxnMarkerResult",
                    field("ProducerId", INT64, "0+"),
                    field("Topics", array(struct("WritableTxnMarkerTopicResult",
                            field("Name", STRING, "0+"),
                            field("Partitions", array(struct("WritableTxnMarkerPartitionResult",
                                    field("PartitionIndex", INT32, "0+"),
                                    field("ErrorCode", INT16, "0+"))), "0+"))), "0+"))), "0+"));

    private WriteTxnMarkersMessages() {
    }
}
