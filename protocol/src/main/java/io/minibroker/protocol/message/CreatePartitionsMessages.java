package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** CreatePartitions (API key 37): request and response bodies, transcribed from the Kafka protocol specification. */
final class CreatePartitionsMessages {
    static final MessageSchema REQUEST = message("CreatePartitionsRequest", "0-3", "2+",
            field("Topics", array(struct("CreatePartitionsTopic",
                    field("Name", STRING, "0+"),
                    field("Count", INT32, "0+"),
                    field("Assignments", array(struct("CreatePartitionsAssignment",
                            field("BrokerIds", array(INT32), "0+"))), "0+").nullable("0+"))), "0+"),
            field("TimeoutMs", INT32, "0+"),
            field("ValidateOnly", BOOL, "0+"));

    static final MessageSchema RESPONSE = message("CreatePartitionsResponse", "0-3", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Results", array(struct("CreatePartitionsTopicResult",
                    field("Name", STRING, "0+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+").defaultNull())), "0+"));

    private CreatePartitionsMessages() {
    }
}
