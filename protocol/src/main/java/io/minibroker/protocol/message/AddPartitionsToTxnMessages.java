package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;
import io.minibroker.protocol.schema.StructSchema;

/** AddPartitionsToTxn (API key 24): request and response bodies, transcribed from the Kafka protocol specification. */
final class AddPartitionsToTxnMessages {
    private static final StructSchema ADD_PARTITIONS_TO_TXN_TOPIC = struct("AddPartitionsToTxnTopic",
            field("Name", STRING, "0+"),
            field("Partitions", array(INT32), "0+"));

    static final MessageSchema REQUEST = message("AddPartitionsToTxnRequest", "0-5", "3+",
            field("Transactions", array(struct("AddPartitionsToTxnTransaction",
                    field("TransactionalId", STRING, "4+"),
                    field("ProducerId", INT64, "4+"),
                    field("ProducerEpoch", INT16, "4+"),
                    field("VerifyOnly", BOOL, "4+").defaultsTo(false),
                    field("Topics", array(ADD_PARTITIONS_TO_TXN_TOPIC), "4+"))), "4+"),
            field("V3AndBelowTransactionalId", STRING, "0-3"),
            field("V3AndBelowProducerId", INT64, "0-3"),
            field("V3AndBelowProducerEpoch", INT16, "0-3"),
            field("V3AndBelowTopics", array(ADD_PARTITIONS_TO_TXN_TOPIC), "0-3"));

    private static final StructSchema ADD_PARTITIONS_TO_TXN_PARTITION_RESULT = struct("AddPartitionsToTxnPartitionResult",
            field("PartitionIndex", INT32, "0+"),
            field("PartitionErrorCode", INT16, "0+"));

    private static final StructSchema ADD_PARTITIONS_TO_TXN_TOPIC_RESULT = struct("AddPartitionsToTxnTopicResult",
            field("Name", STRING, "0+"),
            field("ResultsByPartition", array(ADD_PARTITIONS_TO_TXN_PARTITION_RESULT), "0+"));

    static final MessageSchema RESPONSE = message("AddPartitionsToTxnResponse", "0-5", "3+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "4+"),
            field("ResultsByTransaction", array(struct("AddPartitionsToTxnResult",
                    field("TransactionalId", STRING, "4+"),
                    field("TopicResults", array(ADD_PARTITIONS_TO_TXN_TOPIC_RESULT), "4+"))), "4+"),
            field("ResultsByTopicV3AndBelow", array(ADD_PARTITIONS_TO_TXN_TOPIC_RESULT), "0-3"));

    private AddPartitionsToTxnMessages() {
    }
}
