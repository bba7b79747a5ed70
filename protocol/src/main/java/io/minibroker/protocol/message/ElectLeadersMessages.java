package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** ElectLeaders (API key 43): request and response bodies, transcribed from the Kafka protocol specification. */
final class ElectLeadersMessages {
    static final MessageSchema REQUEST = message("ElectLeadersRequest", "0-2", "2+",
            field("ElectionType", INT8, "1+"),
            field("TopicPartitions", array(struct("TopicPartitions",
                    field("Topic", STRING, "0+"),
                    field("Partitions", array(INT32), "0+"))), "0+").nullable("0+"),
            field("TimeoutMs", INT32, "0+").defaultsTo(60000));

    static final MessageSchema RESPONSE = message("ElectLeadersResponse", "0-2", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "1+"),
            field("ReplicaElectionResults", array(struct("ReplicaElectionResult",
                    field("Topic", STRING, "0+"),
                    field("PartitionResult", array(struct("PartitionResult",
                            field("PartitionId", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("ErrorMessage", STRING, "0+").nullable("0+"))), "0+"))), "0+"));

    private ElectLeadersMessages() {
    }
}
