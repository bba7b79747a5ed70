package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** EndTxn (API key 26): request and response bodies, transcribed from the Kafka protocol specification. */
final class EndTxnMessages {
    static final MessageSchema REQUEST = message("EndTxnRequest", "0-5", "3+",
            field("TransactionalId", STRING, "0+"),
            field("ProducerId", INT64, "0+"),
            field("ProducerEpoch", INT16, "0+"),
            field("Committed", BOOL, "0+"));

    static final MessageSchema RESPONSE = message("EndTxnResponse", "0-5", "3+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ProducerId", INT64, "5+").defaultsTo(-1),
            field("ProducerEpoch", INT16, "5+").defaultsTo(-1));

    private EndTxnMessages() {
    }
}
