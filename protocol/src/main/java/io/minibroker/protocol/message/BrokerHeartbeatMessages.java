package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** BrokerHeartbeat (API key 63): request and response bodies, transcribed from the Kafka protocol specification. */
final class BrokerHeartbeatMessages {
    static final MessageSchema REQUEST = message("BrokerHeartbeatRequest", "0-2", "0+",
            field("BrokerId", INT32, "0+"),
            field("BrokerEpoch", INT64, "0+").defaultsTo(-1),
            field("CurrentMetadataOffset", INT64, "0+"),
            field("WantFence", BOOL, "0+"),
            field("WantShutDown", BOOL, "0+"),
            field("OfflineLogDirs", array(UUID), "1+").tagged(0, "1+"),
            field("CordonedLogDirs", array(UUID), "2+").nullable("2+").tagged(1, "2+").defaultNull());

    static final MessageSchema RESPONSE = message("BrokerHeartbeatResponse", "0-2", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("IsCaughtUp", BOOL, "0+").defaultsTo(false),
            field("IsFenced", BOOL, "0+").defaultsTo(true),
            field("ShouldShutDown", BOOL, "0+"));

    private BrokerHeartbeatMessages() {
    }
}
