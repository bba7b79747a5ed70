package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeProducers (API key 61): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeProducersMessages {
    static final MessageSchema REQUEST = message("DescribeProducersRequest", "0", "0+",
            field("Topics", array(struct("TopicRequest",
                    field("Name", STRING, "0+"),
                    field("PartitionIndexes", array(INT32), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("DescribeProducersResponse", "0", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Topics", array(struct("TopicResponse",
                    field("Name", STRING, "0+"),
                    field("Partitions", array(struct("PartitionResponse",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("ErrorMessage", STRING, "0+").nullable("0+").defaultNull(),
                            field("ActiveProducers", array(struct("ProducerState",
                                    field("ProducerId", INT64, "0+"),
                                    field("ProducerEpoch", INT32, "0+"),
                                    field("LastSequence", INT32, "0+").defaultsTo(-1),
                                    field("LastTimestamp", INT64, "0+").defaultsTo(-1),
                                    field("CoordinatorEpoch", INT32, "0+"),
                                    field("CurrentTxnStartOffset", INT64, "0+").defaultsTo(-1))), "0+"))), "0+"))), "0+"));

    private DescribeProducersMessages() {
    }
}
