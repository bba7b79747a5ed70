package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** AlterPartition (API key 56): request and response bodies, transcribed from the Kafka protocol specification. */
final class AlterPartitionMessages {
    static final MessageSchema REQUEST = message("AlterPartitionRequest", "2-3", "0+",
            field("BrokerId", INT32, "0+"),
            field("BrokerEpoch", INT64, "0+").defaultsTo(-1),
            field("Topics", array(struct("TopicData",
                    field("TopicId", UUID, "2+"),
                    field("Partitions", array(struct("PartitionData",
                            field("PartitionIndex", INT32, "0+"),
                            field("LeaderEpoch", INT32, "0+"),
                            field("NewIsr", array(INT32), "0-2"),
                            field("NewIsrWithEpochs", array(struct("BrokerState",
                                    field("BrokerId", INT32, "3+"),
                                    field("BrokerEpoch", INT64, "3+").defaultsTo(-1))), "3+"),
                            field("LeaderRecoveryState", INT8, "1+").defaultsTo(0),
                            field("PartitionEpoch", INT32, "0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("AlterPartitionResponse", "2-3", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("Topics", array(struct("TopicData",
                    field("TopicId", UUID, "2+"),
                    field("Partitions", array(struct("PartitionData",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("LeaderId", INT32, "0+"),
                            field("LeaderEpoch", INT32, "0+"),
                            field("Isr", array(INT32), "0+"),
                            field("LeaderRecoveryState", INT8, "1+").defaultsTo(0),
                            field("PartitionEpoch", INT32, "0+"))), "0+"))), "0+"));

    private AlterPartitionMessages() {
    }
}
