package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** AddOffsetsToTxn (API key 25): request and response bodies, transcribed from the Kafka protocol specification. */
final class AddOffsetsToTxnMessages {
    static final MessageSchema REQUEST = message("AddOffsetsToTxnRequest", "0-4", "3+",
            field("TransactionalId", STRING, "0+"),
            field("ProducerId", INT64, "0+"),
            field("ProducerEpoch", INT16, "0+"),
            field("GroupId", STRING, "0+"));

    static final MessageSchema RESPONSE = message("AddOffsetsToTxnResponse", "0-4", "3+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"));

    private AddOffsetsToTxnMessages() {
    }
}
