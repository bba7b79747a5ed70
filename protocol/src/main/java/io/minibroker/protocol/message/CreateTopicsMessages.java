package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** CreateTopics (API key 19): request and response bodies, transcribed from the Kafka protocol specification. */
final class CreateTopicsMessages {
    static final MessageSchema REQUEST = message("CreateTopicsRequest", "2-7", "5+",
            field("Topics", array(struct("CreatableTopic",
                    field("Name", STRING, "0+"),
                    field("NumPartitions", INT32, "0+"),
                    field("ReplicationFactor", INT16, "0+"),
                    field("Assignments", array(struct("CreatableReplicaAssignment",
                            field("PartitionIndex", INT32, "0+"),
                            field("BrokerIds", array(INT32), "0+"))), "0+"),
                    field("Configs", array(struct("CreatableTopicConfig",
                            field("Name", STRING, "0+"),
                            field("Value", STRING, "0+").nullable("0+"))), "0+"))), "0+"),
            field("timeoutMs", INT32, "0+").defaultsTo(60000),
            field("validateOnly", BOOL, "1+").defaultsTo(false));

    static final MessageSchema RESPONSE = message("CreateTopicsResponse", "2-7", "5+",
            field("ThrottleTimeMs", INT32, "2+"),
            field("Topics", array(struct("CreatableTopicResult",
                    field("Name", STRING, "0+"),
                    field("TopicId", UUID, "7+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "1+").nullable("0+"),
                    field("TopicConfigErrorCode", INT16, "5+").tagged(0, "5+"),
                    field("NumPartitions", INT32, "5+").defaultsTo(-1),
                    field("ReplicationFactor", INT16, "5+").defaultsTo(-1),
                    field("Configs", array(struct("CreatableTopicConfigs",
                            field("Name", STRING, "5+"),
                            field("Value", STRING, "5+").nullable("5+"),
                            field("ReadOnly", BOOL, "5+"),
                            field("ConfigSource", INT8, "5+").defaultsTo(-1),
                            field("IsSensitive", BOOL, "5+"))), "5+").nullable("5+"))), "0+"));

    private CreateTopicsMessages() {
    }
}
