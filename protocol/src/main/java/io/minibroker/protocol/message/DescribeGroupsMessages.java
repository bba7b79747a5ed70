package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeGroups (API key 15): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeGroupsMessages {
    static final MessageSchema REQUEST = message("DescribeGroupsRequest", "0-6", "5+",
            field("Groups", array(STRING), "0+"),
            field("IncludeAuthorizedOperations", BOOL, "3+"));

    static final MessageSchema RESPONSE = message("DescribeGroupsResponse", "0-6", "5+",
            field("ThrottleTimeMs", INT32, "1+"),
            field("Groups", array(struct("DescribedGroup",
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "6+").nullable("6+").defaultNull(),
                    field("GroupId", STRING, "0+"),
                    field("GroupState", STRING, "0+"),
                    field("ProtocolType", STRING, "0+"),
                    field("ProtocolData", STRING, "0+"),
                    field("Members", array(struct("DescribedGroupMember",
                            field("MemberId", STRING, "0+"),
                            field("GroupInstanceId", STRING, "4+").nullable("4+").defaultNull(),
                            field("ClientId", STRING, "0+"),
                            field("ClientHost", STRING, "0+"),
                            field("MemberMetadata", BYTES, "0+"),
                            field("MemberAssignment", BYTES, "0+"))), "0+"),
                    field("AuthorizedOperations", INT32, "3+").defaultsTo(-2147483648))), "0+"));

    private DescribeGroupsMessages() {
    }
}
