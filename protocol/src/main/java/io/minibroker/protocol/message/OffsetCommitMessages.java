package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** OffsetCommit (API key 8): request and response bodies, transcribed from the Kafka protocol specification. */
final class OffsetCommitMessages {
    static final MessageSchema REQUEST = message("OffsetCommitRequest", "2-10", "8+",
            field("GroupId", STRING, "0+"),
            field("GenerationIdOrMemberEpoch", INT32, "1+").defaultsTo(-1),
            field("MemberId", STRING, "1+"),
            field("GroupInstanceId", STRING, "7+").nullable("7+").defaultNull(),
            field("RetentionTimeMs", INT64, "2-4").defaultsTo(-1),
            field("Topics", array(struct("OffsetCommitRequestTopic",
                    field("Name", STRING, "0-9"),
                    field("TopicId", UUID, "10+"),
                    field("Partitions", array(struct("OffsetCommitRequestPartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("CommittedOffset", INT64, "0+"),
                            field("CommittedLeaderEpoch", INT32, "6+").defaultsTo(-1),
                            field("CommittedMetadata", STRING, "0+").nullable("0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("OffsetCommitResponse", "2-10", "8+",
            field("ThrottleTimeMs", INT32, "3+"),
            field("Topics", array(struct("OffsetCommitResponseTopic",
                    field("Name", STRING, "0-9"),
                    field("TopicId", UUID, "10+"),
                    field("Partitions", array(struct("OffsetCommitResponsePartition",
                            field("PartitionIndex", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"))), "0+"))), "0+"));

    private OffsetCommitMessages() {
    }
}
