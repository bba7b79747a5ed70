package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** Produce (API key 0): request and response bodies, transcribed from the Kafka protocol specification. */
final class ProduceMessages {
    static final MessageSchema REQUEST = message("ProduceRequest", "3-13", "9+",
            field("TransactionalId", STRING, "3+").nullable("3+").defaultNull(),
            field("Acks", INT16, "0+"),
            field("TimeoutMs", INT32, "0+"),
            field("TopicData", array(struct("TopicProduceData",
                    field("Name", STRING, "0-12"),
                    field("TopicId", UUID, "13+"),
                    field("PartitionData", array(struct("PartitionProduceData",
                            field("Index", INT32, "0+"),
                            field("Records", RECORDS, "0+").nullable("0+"))), "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("ProduceResponse", "3-13", "9+",
            field("Responses", array(struct("TopicProduceResponse",
                    field("Name", STRING, "0-12"),
                    field("TopicId", UUID, "13+"),
                    field("PartitionResponses", array(struct("PartitionProduceResponse",
                            field("Index", INT32, "0+"),
                            field("ErrorCode", INT16, "0+"),
                            field("BaseOffset", INT64, "0+"),
                            field("LogAppendTimeMs", INT64, "2+").defaultsTo(-1),
                            field("LogStartOffset", INT64, "5+").defaultsTo(-1),
                            field("RecordErrors", array(struct("BatchIndexAndErrorMessage",
                                    field("BatchIndex", INT32, "8+"),
                                    field("BatchIndexErrorMessage", STRING, "8+").nullable("8+").defaultNull())), "8+"),
                            field("ErrorMessage", STRING, "8+").nullable("8+").defaultNull(),
                            field("CurrentLeader", struct("LeaderIdAndEpoch",
                                    field("LeaderId", INT32, "10+").defaultsTo(-1),
                                    field("LeaderEpoch", INT32, "10+").defaultsTo(-1)), "10+").tagged(0, "10+"))), "0+"))), "0+"),
            field("ThrottleTimeMs", INT32, "1+").defaultsTo(0),
            field("NodeEndpoints", array(struct("NodeEndpoint",
                    field("NodeId", INT32, "10+"),
                    field("Host", STRING, "10+"),
                    field("Port", INT32, "10+"),
                    field("Rack", STRING, "10+").nullable("10+").defaultNull())), "10+").tagged(0, "10+"));

    private ProduceMessages() {
    }
}
