package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** ListGroups (API key 16): request and response bodies, transcribed from the Kafka protocol specification. */
final class ListGroupsMessages {
    static final MessageSchema REQUEST = message("ListGroupsRequest", "0-5", "3+",
            field("StatesFilter", array(STRING), "4+"),
            field("TypesFilter", array(STRING), "5+"));

    static final MessageSchema RESPONSE = message("ListGroupsResponse", "0-5", "3+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("ErrorCode", INT16, "0+"),
            field("Groups", array(struct("ListedGroup",
                    field("GroupId", STRING, "0+"),
                    field("ProtocolType", STRING, "0+"),
                    field("GroupState", STRING, "4+"),
                    field("GroupType", STRING, "5+"))), "0+"));

    private ListGroupsMessages() {
    }
}
