package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** SaslAuthenticate (API key 36): request and response bodies, transcribed from the Kafka protocol specification. */
final class SaslAuthenticateMessages {
    static final MessageSchema REQUEST = message("SaslAuthenticateRequest", "0-2", "2+",
            field("AuthBytes", BYTES, "0+"));

    static final MessageSchema RESPONSE = message("SaslAuthenticateResponse", "0-2", "2+",
            field("ErrorCode", INT16, "0+"),
            field("ErrorMessage", STRING, "0+").nullable("0+"),
            field("AuthBytes", BYTES, "0+"),
            field("SessionLifetimeMs", INT64, "1+").defaultsTo(0));

    private SaslAuthenticateMessages() {
    }
}
