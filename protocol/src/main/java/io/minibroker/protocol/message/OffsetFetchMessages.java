package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** OffsetFetch (API key 9): request and response bodies, transcribed from the Kafka protocol specification. */
final class OffsetFetchMessages {
    static final MessageSchema REQUEST = message("OffsetFetchRequest", "1-10", "6+",
            field("GroupId", STRING, "0-7"),
            field("Topics", array(struct("OffsetFetchRequestTopic",
                    field("Name", STRING, "0-7"),
                    field("PartitionIndexes", array(INT32), "0-7"))), "0-7").nullable("2-7"),
            field("Groups", array(struct("OffsetFetchRequestGroup",
                    field("GroupId", STRING, "8+"),
                    field("MemberId", STRING, "9+").nullable("9+").defaultNull(),
                    field("MemberEpoch", INT32, "9+").defaultsTo(-1),
                    field("Topics", array(struct("OffsetFetchRequestTopics",
                            field("Name", STRING, "8-9"),
                            field("TopicId", UUID, "10+"),
                            field("PartitionIndexes", array(INT32), "8+"))), "8+").nullable("8+"))), "8+"),
            field("RequireStable", BOOL, "7+").defaultsTo(false));

    static final MessageSchema RESPONSE = message("OffsetFetchResponse", "1-10", "6+",
            field("ThrottleTimeMs", INT32, "3+"),
            field("Topics", array(struct("OffsetFetchResponseTopic",
                    field("Name", STRING, "0-7"),
                    field("Partitions", array(struct("OffsetFetchResponsePartition",
                            field("PartitionIndex", INT32, "0-7"),
                            field("CommittedOffset", INT64, "0-7"),
                            field("CommittedLeaderEpoch", INT32, "5-7").defaultsTo(-1),
                            field("Metadata", STRING, "0-7").nullable("0-7"),
                            field("ErrorCode", INT16, "0-7"))), "0-7"))), "0-7"),
            field("ErrorCode", INT16, "2-7").defaultsTo(0),
            field("Groups", array(struct("OffsetFetchResponseGroup",
                    field("GroupId", STRING, "8+"),
                    field("Topics", array(struct("OffsetFetchResponseTopics",
                            field("Name", STRING, "8-9"),
                            field("TopicId", UUID, "10+"),
                            field("Partitions", array(struct("OffsetFetchResponsePartitions",
                                    field("PartitionIndex", INT32, "8+"),
                                    field("CommittedOffset", INT64, "8+"),
                                    field("CommittedLeaderEpoch", INT32, "8+").defaultsTo(-1),
                                    field("Metadata", STRING, "8+").nullable("8+"),
                                    field("ErrorCode", INT16, "8+"))), "8+"))), "8+"),
                    field("ErrorCode", INT16, "8+").defaultsTo(0))), "8+"));

    private OffsetFetchMessages() {
    }
}
