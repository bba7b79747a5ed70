package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** Heartbeat (API key 12): request and response bodies, transcribed from the Kafka protocol specification. */
final class HeartbeatMessages {
    static final MessageSchema REQUEST = message("HeartbeatRequest", "0-4", "4+",
            field("GroupId", STRING, "0+"),
            field("GenerationId", INT32, "0+"),
            field("MemberId", STRING, "0+"),
            field("GroupInstanceId", STRING, "3+").nullable("3+").defaultNull());

    static final MessageSchema RESPONSE = message("HeartbeatResponse", "0-4", "4+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "0+"));

    private HeartbeatMessages() {
    }
}
