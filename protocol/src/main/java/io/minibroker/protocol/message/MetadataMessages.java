package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** Metadata (API key 3): request and response bodies, transcribed from the Kafka protocol specification. */
final class MetadataMessages {
    static final MessageSchema REQUEST = message("MetadataRequest", "0-13", "9+",
            field("Topics", array(struct("MetadataRequestTopic",
                    field("TopicId", UUID, "10+"),
                    field("Name", STRING, "0+").nullable("10+"))), "0+").nullable("1+"),
            field("AllowAutoTopicCreation", BOOL, "4+").defaultsTo(true),
            field("IncludeClusterAuthorizedOperations", BOOL, "8-10"),
            field("IncludeTopicAuthorizedOperations", BOOL, "8+"));

    static final MessageSchema RESPONSE = message("MetadataResponse", "0-13", "9+",
            field("ThrottleTimeMs", INT32, "3+"),
            field("Brokers", array(struct("MetadataResponseBroker",
                    field("NodeId", INT32, "0+"),
                    field("Host", STRING, "0+"),
                    field("Port", INT32, "0+"),
                    field("Rack", STRING, "1+").nullable("1+").defaultNull())), "0+"),
            field("ClusterId", STRING, "2+").nullable("2+").defaultNull(),
            field("ControllerId", INT32, "1+").defaultsTo(-1),
            field("Topics", array(struct("MetadataResponseTopic",
                    field("ErrorCode", INT16, "0+"),
                    field("Name", STRING, "0+").nullable("12+"),
                    field("TopicId", UUID, "10+"),
                    field("IsInternal", BOOL, "1+").defaultsTo(false),
                    field("Partitions", array(struct("MetadataResponsePartition",
                            field("ErrorCode", INT16, "0+"),
                            field("PartitionIndex", INT32, "0+"),
                            field("LeaderId", INT32, "0+"),
                            field("LeaderEpoch", INT32, "7+").defaultsTo(-1),
                            field("ReplicaNodes", array(INT32), "0+"),
                            field("IsrNodes", array(INT32), "0+"),
                            field("OfflineReplicas", array(INT32), "5+"))), "0+"),
                    field("TopicAuthorizedOperations", INT32, "8+").defaultsTo(-2147483648))), "0+"),
            field("ClusterAuthorizedOperations", INT32, "8-10").defaultsTo(-2147483648),
            field("ErrorCode", INT16, "13+"));

    private MetadataMessages() {
    }
}
