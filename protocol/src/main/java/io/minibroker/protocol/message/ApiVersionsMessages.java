package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** ApiVersions (API key 18): request and response bodies, transcribed from the Kafka protocol specification. */
final class ApiVersionsMessages {
    static final MessageSchema REQUEST = message("ApiVersionsRequest", "0-5", "3+",
            field("ClientSoftwareName", STRING, "3+"),
            field("ClientSoftwareVersion", STRING, "3+"),
            field("ClusterId", STRING, "5+").nullable("5+").defaultNull(),
            field("NodeId", INT32, "5+").defaultsTo(-1));

    static final MessageSchema RESPONSE = message("ApiVersionsResponse", "0-5", "3+",
            field("ErrorCode", INT16, "0+"),
            field("ApiKeys", array(struct("ApiVersion",
                    field("ApiKey", INT16, "0+"),
                    field("MinVersion", INT16, "0+"),
                    field("MaxVersion", INT16, "0+"))), "0+"),
            field("ThrottleTimeMs", INT32, "1+"),
            field("SupportedFeatures", array(struct("SupportedFeatureKey",
                    field("Name", STRING, "3+"),
                    field("MinVersion", INT16, "3+"),
                    field("MaxVersion", INT16, "3+"))), "3+").tagged(0, "3+"),
            field("FinalizedFeaturesEpoch", INT64, "3+").tagged(1, "3+").defaultsTo(-1),
            field("FinalizedFeatures", array(struct("FinalizedFeatureKey",
                    field("Name", STRING, "3+"),
                    field("MaxVersionLevel", INT16, "3+"),
                    field("MinVersionLevel", INT16, "3+"))), "3+").tagged(2, "3+"),
            field("ZkMigrationReady", BOOL, "3+").tagged(3, "3+").defaultsTo(false));

    private ApiVersionsMessages() {
    }
}
