package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeLogDirs (API key 35): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeLogDirsMessages {
    static final MessageSchema REQUEST = message("DescribeLogDirsRequest", "1-5", "2+",
            field("Topics", array(struct("DescribableLogDirTopic",
                    field("Topic", STRING, "0+"),
                    field("Partitions", array(INT32), "0+"))), "0+").nullable("0+"));

    static final MessageSchema RESPONSE = message("DescribeLogDirsResponse", "1-5", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "3+"),
            field("Results", array(struct("DescribeLogDirsResult",
                    field("ErrorCode", INT16, "0+"),
                    field("LogDir", STRING, "0+"),
                    field("Topics", array(struct("DescribeLogDirsTopic",
                            field("Name", STRING, "0+"),
                            field("Partitions", array(struct("DescribeLogDirsPartition",
                                    field("PartitionIndex", INT32, "0+"),
                                    field("PartitionSize", INT64, "0+"),
                                    field("OffsetLag", INT64, "0+"),
                                    field("IsFutureKey", BOOL, "0+"))), "0+"))), "0+"),
                    field("TotalBytes", INT64, "4+").defaultsTo(-1),
                    field("UsableBytes", INT64, "4+").defaultsTo(-1),
                    field("IsCordoned", BOOL, "5+").defaultsTo(false))), "0+"));

    private DescribeLogDirsMessages() {
    }
}
