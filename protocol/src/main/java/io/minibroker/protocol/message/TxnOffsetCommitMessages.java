package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** TxnOffsetCommit (API key 28): request and response bodies, transcribed from the Kafka protocol specification. */
final class TxnOffsetCommitMessages {
    static final MessageSchema REQUEST = message("TxnOffsetCommitRequest", "0-6", "3+",
            field("TransactionalId", STRING, "0+"),
            field("GroupId", STRING, "0+"),
            field("ProducerId", INT64, "0+"),
            field("ProducerEpoch", INT16, "0+"),
            field("GenerationIdOrMemberEpoch", INT32, "3+").defaultsTo(-1),
            field("MemberId", STRING, "3+").defaultsTo(""),
            field("GroupInstanceId", STRING, "3+").nullable("3+").defaultNull(),
            field("Topics", array(struct("TxnOffsetCommitRequestTopic",
                    field("Name", STRING, "0-5"),
                    field("TopicId", UUID, "6+"),
                    field("Partitions", array(struct("TxnOffsetCommitRequestPartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("CommittedOffset", INT64, "0+"),
                            field("CommittedLeaderEpoch", INT32, "2+").defaultsTo(-1),
                            field("CommittedMetadata", STRING, "0+").nullable("0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("TxnOffsetCommitResponse", "0-6", "3+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Topics", array(struct("TxnOffsetCommitResponseTopic",
                    field("Name", STRING, "0-5"),
                    field("TopicId", UUID, "6+"),
                    field("Partitions", array(struct("TxnOffsetCommitResponsePartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"))), "0+"))), "0+"));

    private TxnOffsetCommitMessages() {
    }
}
