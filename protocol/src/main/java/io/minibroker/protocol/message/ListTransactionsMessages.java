package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** ListTransactions (API key 66): request and response bodies, transcribed from the Kafka protocol specification. */
final class ListTransactionsMessages {
    static final MessageSchema REQUEST = message("ListTransactionsRequest", "0-2", "0+",
            field("StateFilters", array(STRING), "0+"),
            field("ProducerIdFilters", array(INT64), "0+"),
            field("DurationFilter", INT64, "1+").defaultsTo(-1),
            field("TransactionalIdPattern", STRING, "2+").nullable("2+").defaultNull());

    static final MessageSchema RESPONSE = message("ListTransactionsResponse", "0-2", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("ErrorCode", INT16, "0+"),
            field("UnknownStateFilters", array(STRING), "0+"),
            field("TransactionStates", array(struct("TransactionState",
                    field("TransactionalId", STRING, "0+"),
                    field("ProducerId", INT64, "0+"),
                    field("TransactionState", STRING, "0+"))), "0+"));

    private ListTransactionsMessages() {
    }
}
