package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** SyncGroup (API key 14): request and response bodies, transcribed from the Kafka protocol specification. */
final class SyncGroupMessages {
    static final MessageSchema REQUEST = message("SyncGroupRequest", "0-5", "4+",
            field("GroupId", STRING, "0+"),
            field("GenerationId", INT32, "0+"),
            field("MemberId", STRING, "0+"),
            field("GroupInstanceId", STRING, "3+").nullable("3+").defaultNull(),
            field("ProtocolType", STRING, "5+").nullable("5+").defaultNull(),
            field("ProtocolName", STRING, "5+").nullable("5+").defaultNull(),
            field("Assignments", array(struct("SyncGroupRequestAssignment",
                    field("MemberId", STRING, "0+"),
                    field("Assignment", BYTES, "0+"))), "0+"));

    static final MessageSchema RESPONSE = message("SyncGroupResponse", "0-5", "4+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "0+"),
            field("ProtocolType", STRING, "5+").nullable("5+").defaultNull(),
            field("ProtocolName", STRING, "5+").nullable("5+").defaultNull(),
            field("Assignment", BYTES, "0+"));

    private SyncGroupMessages() {
    }
}
