package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.Field;
import io.minibroker.protocol.schema.MessageSchema;

/**
 * DescribeAcls (API key 29), CreateAcls (30) and DeleteAcls (31): request and response bodies, transcribed from
 * the Kafka protocol specification. A pattern type of 3 is LITERAL, Kafka's default.
 */
final class AclMessages {
    private static final int LITERAL = 3;

    static final MessageSchema DESCRIBE_REQUEST = message("DescribeAclsRequest", "1-3", "2+", filter());

    static final MessageSchema DESCRIBE_RESPONSE = message("DescribeAclsResponse", "1-3", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ErrorMessage", STRING, "0+").nullable("0+"),
            field("Resources", array(struct("DescribeAclsResource",
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"),
                    field("PatternType", INT8, "1+").defaultsTo(LITERAL),
                    field("Acls", array(struct("AclDescription",
                            field("Principal", STRING, "0+"),
                            field("Host", STRING, "0+"),
                            field("Operation", INT8, "0+"),
                            field("PermissionType", INT8, "0+"))), "0+"))), "0+"));

    static final MessageSchema CREATE_REQUEST = message("CreateAclsRequest", "1-3", "2+",
            field("Creations", array(struct("AclCreation",
                    field("ResourceType", INT8, "0+"),
                    field("ResourceName", STRING, "0+"),
                    field("ResourcePatternType", INT8, "1+").defaultsTo(LITERAL),
                    field("Principal", STRING, "0+"),
                    field("Host", STRING, "0+"),
                    field("Operation", INT8, "0+"),
                    field("PermissionType", INT8, "0+"))), "0+"));

    static final MessageSchema CREATE_RESPONSE = message("CreateAclsResponse", "1-3", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("Results", array(struct("AclCreationResult",
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+"))), "0+"));

    static final MessageSchema DELETE_REQUEST = message("DeleteAclsRequest", "1-3", "2+",
            field("Filters", array(struct("DeleteAclsFilter", filter())), "0+"));

    static final MessageSchema DELETE_RESPONSE = message("DeleteAclsResponse", "1-3", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("FilterResults", array(struct("DeleteAclsFilterResult",
                    field("ErrorCode", INT16, "0+"),
                    field("ErrorMessage", STRING, "0+").nullable("0+").defaultNull(),
                    field("MatchingAcls", array(struct("DeleteAclsMatchingAcl",
                            field("ErrorCode", INT16, "0+"),
                            field("ErrorMessage", STRING, "0+").nullable("0+").defaultNull(),
                            field("ResourceType", INT8, "0+"),
                            field("ResourceName", STRING, "0+"),
                            field("PatternType", INT8, "1+").defaultsTo(LITERAL),
                            field("Principal", STRING, "0+"),
                            field("Host", STRING, "0+"),
                            field("Operation", INT8, "0+"),
                            field("PermissionType", INT8, "0+"))), "0+"))), "0+"));

    /** An ACL filter's fields, the same in DescribeAcls and in each of DeleteAcls' filters; fresh each call. */
    private static Field[] filter() {
        return new Field[]{
            field("ResourceTypeFilter", INT8, "0+"),
            field("ResourceNameFilter", STRING, "0+").nullable("0+"),
            field("PatternTypeFilter", INT8, "1+").defaultsTo(LITERAL),
            field("PrincipalFilter", STRING, "0+").nullable("0+"),
            field("HostFilter", STRING, "0+").nullable("0+"),
            field("Operation", INT8, "0+"),
            field("PermissionType", INT8, "0+")};
    }

    private AclMessages() {
    }
}
