package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DeleteGroups (API key 42): request and response bodies, transcribed from the Kafka protocol specification. */
final class DeleteGroupsMessages {
    static final MessageSchema REQUEST = message("DeleteGroupsRequest", "0-3", "2+",
            field("GroupsNames", array(STRING), "0+"));

    static final MessageSchema RESPONSE = message("DeleteGroupsResponse", "0-3", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Results", array(struct("DeletableGroupResult",
                    field("GroupId", STRING, "0+"),
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "3+").nullable("3+").defaultNull())), "0+"));

    private DeleteGroupsMessages() {
    }
}
