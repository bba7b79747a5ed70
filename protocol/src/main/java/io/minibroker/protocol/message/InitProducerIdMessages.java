package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** InitProducerId (API key 22): request and response bodies, transcribed from the Kafka protocol specification. */
final class InitProducerIdMessages {
    static final MessageSchema REQUEST = message("InitProducerIdRequest", "0-6", "2+",
            field("TransactionalId", STRING, "0+").nullable("0+"),
            field("TransactionTimeoutMs", INT32, "0+"),
            field("ProducerId", INT64, "3+").defaultsTo(-1),
            field("ProducerEpoch", INT16, "3+").defaultsTo(-1),
            field("Enable2Pc", BOOL, "6+").defaultsTo(false),
            field("KeepPreparedTxn", BOOL, "6+").defaultsTo(false));

    static final MessageSchema RESPONSE = message("InitProducerIdResponse", "0-6", "2+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("ProducerId", INT64, "0+").defaultsTo(-1),
            field("ProducerEpoch", INT16, "0+"),
            field("OngoingTxnProducerId", INT64, "6+").defaultsTo(-1),
            field("OngoingTxnProducerEpoch", INT16, "6+").defaultsTo(-1));

    private InitProducerIdMessages() {
    }
}
