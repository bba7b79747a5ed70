package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** LeaveGroup (API key 13): request and response bodies, transcribed from the Kafka protocol specification. */
final class LeaveGroupMessages {
    static final MessageSchema REQUEST = message("LeaveGroupRequest", "0-5", "4+",
            field("GroupId", STRING, "0+"),
            field("MemberId", STRING, "0-2"),
            field("Members", array(struct("MemberIdentity",
                    field("MemberId", STRING, "3+"),
                    field("GroupInstanceId", STRING, "3+").nullable("3+").defaultNull(),
                    field("Reason", STRING, "5+").nullable("5+").defaultNull())), "3+"));

    static final MessageSchema RESPONSE = message("LeaveGroupResponse", "0-5", "4+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "0+"),
            field("Members", array(struct("MemberResponse",
                    field("MemberId", STRING, "3+"),
                    field("GroupInstanceId", STRING, "3+").nullable("3+"),
                    field("ErrorCode", INT16, "3+"))), "3+"));

    private LeaveGroupMessages() {
    }
}
