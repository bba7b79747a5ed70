package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DeleteTopics (API key 20): request and response bodies, transcribed from the Kafka protocol specification. */
final class DeleteTopicsMessages {
    static final MessageSchema REQUEST = message("DeleteTopicsRequest", "1-6", "4+",
            field("Topics", array(struct("DeleteTopicState",
                    field("Name", STRING, "6+").nullable("6+").defaultNull(),
                    field("TopicId", UUID, "6+"))), "6+"),
            field("TopicNames", array(STRING), "0-5"),
            field("TimeoutMs", INT32, "0+"));

    static final MessageSchema RESPONSE = message("DeleteTopicsResponse", "1-6", "4+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("Responses", array(struct("DeletableTopicResult",
                    field("Name", STRING, "0+").nullable("6+"),
                    field("TopicId", UUID, "6+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "5+").nullable("5+").defaultNull())), "0+"));

    private DeleteTopicsMessages() {
    }
}
