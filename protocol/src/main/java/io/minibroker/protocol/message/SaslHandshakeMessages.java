package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** SaslHandshake (API key 17): request and response bodies, transcribed from the Kafka protocol specification. */
final class SaslHandshakeMessages {
    static final MessageSchema REQUEST = message("SaslHandshakeRequest", "0-1", "none",
            field("Mechanism", STRING, "0+"));

    static final MessageSchema RESPONSE = message("SaslHandshakeResponse", "0-1", "none",
            field("ErrorCode", INT16, "0+"),
            field("Mechanisms", array(STRING), "0+"));

    private SaslHandshakeMessages() {
    }
}
