package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** FindCoordinator (API key 10): request and response bodies, transcribed from the Kafka protocol specification. */
final class FindCoordinatorMessages {
    static final MessageSchema REQUEST = message("FindCoordinatorRequest", "0-6", "3+",
            field("Key", STRING, "0-3"),
            field("KeyType", INT8, "1+").defaultsTo(0),
            field("CoordinatorKeys", array(STRING), "4+"));

    static final MessageSchema RESPONSE = message("FindCoordinatorResponse", "0-6", "3+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "0-3"),
            field("ErrorMessage", STRING, "1-3").nullable("1-3"),
            field("NodeId", INT32, "0-3"),
            field("Host", STRING, "0-3"),
            field("Port", INT32, "0-3"),
            field("Coordinators", array(struct("Coordinator",
                    field("Key", STRING, "4+"),
                    field("NodeId", INT32, "4+"),
                    field("Host", STRING, "4+"),
                    field("Port", INT32, "4+"),
                    field("ErrorCode", INT16, "4+"),
                    field("ErrorMessage", STRING, "4+").nullable("4+"))), "4+"));

    private FindCoordinatorMessages() {
    }
}
