package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeCluster (API key 60): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeClusterMessages {
    static final MessageSchema REQUEST = message("DescribeClusterRequest", "0-2", "0+",
            field("IncludeClusterAuthorizedOperations", BOOL, "0+"),
            field("EndpointType", INT8, "1+").defaultsTo(1),
            field("IncludeFencedBrokers", BOOL, "2+"));

    static final MessageSchema RESPONSE = message("DescribeClusterResponse", "0-2", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ErrorMessage", STRING, "0+").nullable("0+").defaultNull(),
            field("EndpointType", INT8, "1+").defaultsTo(1),
            field("ClusterId", STRING, "0+"),
            field("ControllerId", INT32, "0+").defaultsTo(-1),
            field("Brokers", array(struct("DescribeClusterBroker",
                    field("BrokerId", INT32, "0+"),
                    field("Host", STRING, "0+"),
                    field("Port", INT32, "0+"),
                    field("Rack", STRING, "0+").nullable("0+").defaultNull(),
                    field("IsFenced", BOOL, "2+"))), "0+"),
            field("ClusterAuthorizedOperations", INT32, "0+").defaultsTo(-2147483648));

    private DescribeClusterMessages() {
    }
}
