package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** JoinGroup (API key 11): request and response bodies, transcribed from the Kafka protocol specification. */
final class JoinGroupMessages {
    static final MessageSchema REQUEST = message("JoinGroupRequest", "0-9", "6+",
            field("GroupId", STRING, "0+"),
            field("SessionTimeoutMs", INT32, "0+"),
            field("RebalanceTimeoutMs", INT32, "1+").defaultsTo(-1),
            field("MemberId", STRING, "0+"),
            field("GroupInstanceId", STRING, "5+").nullable("5+").defaultNull(),
            field("ProtocolType", STRING, "0+"),
            field("Protocols", array(struct("JoinGroupRequestProtocol",
                    field("Name", STRING, "0+"),
                    field("Metadata", BYTES, "0+"))), "0+"),
            field("Reason", STRING, "8+").nullable("8+").defaultNull());

    static final MessageSchema RESPONSE = message("JoinGroupResponse", "0-9", "6+",
            field("ThrottleTimeMs", INT32, "2+"),
            field("ErrorCode", INT16, "0+"),
            field("GenerationId", INT32, "0+").defaultsTo(-1),
            field("ProtocolType", STRING, "7+").nullable("7+").defaultNull(),
            field("ProtocolName", STRING, "0+").nullable("7+"),
            field("Leader", STRING, "0+"),
            field("SkipAssignment", BOOL, "9+").defaultsTo(false),
            field("MemberId", STRING, "0+"),
            field("Members", array(struct("JoinGroupResponseMember",
                    field("MemberId", STRING, "0+"),
                    field("GroupInstanceId", STRING, "5+").nullable("5+").defaultNull(),
                    field("Metadata", BYTES, "0+"))), "0+"));

    private JoinGroupMessages() {
    }
}
