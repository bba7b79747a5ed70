package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** BrokerRegistration (API key 62): request and response bodies, transcribed from the Kafka protocol specification. */
final class BrokerRegistrationMessages {
    static final MessageSchema REQUEST = message("BrokerRegistrationRequest", "0-4", "0+",
            field("BrokerId", INT32, "0+"),
            field("ClusterId", STRING, "0+"),
            field("IncarnationId", UUID, "0+"),
            field("Listeners", array(struct("Listener",
                    field("Name", STRING, "0+"),
                    field("Host", STRING, "0+"),
                    field("Port", UINT16, "0+"),
                    field("SecurityProtocol", INT16, "0+"))), "0+"),
            field("Features", array(struct("Feature",
                    field("Name", STRING, "0+"),
                    field("MinSupportedVersion", INT16, "0+"),
                    field("MaxSupportedVersion", INT16, "0+"))), "0+"),
            field("Rack", STRING, "0+").nullable("0+"),
            field("IsMigratingZkBroker", BOOL, "1+").defaultsTo(false),
            field("LogDirs", array(UUID), "2+"),
            field("PreviousBrokerEpoch", INT64, "3+").defaultsTo(-1));

    static final MessageSchema RESPONSE = message("BrokerRegistrationResponse", "0-4", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("BrokerEpoch", INT64, "0+").defaultsTo(-1));

    private BrokerRegistrationMessages() {
    }
}
