package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

import io.minibroker.protocol.schema.MessageSchema;

/** DescribeTransactions (API key 65): request and response bodies, transcribed from the Kafka protocol specification. */
final class DescribeTransactionsMessages {
    static final MessageSchema REQUEST = message("DescribeTransactionsRequest", "0", "0+",
            field("TransactionalIds", array(STRING), "0+"));

    static final MessageSchema RESPONSE = message("DescribeTransactionsResponse", "0", "0+",
            field("ThrottleTimeMs", INT32, "0+"),
            field("TransactionStates", array(struct("TransactionState",
                    field("ErrorCode", INT16, "0+"),
                    field("TransactionalId", STRING, "0+"),
                    field("TransactionState", STRING, "0+"),
                    field("TransactionTimeoutMs", INT32, "0+"),
                    field("TransactionStartTimeMs", INT64, "0+"),
                    field("ProducerId", INT64, "0+"),
                    field("ProducerEpoch", INT16, "0+"),
                    field("Topics", array(struct("TopicData",
                            field("Topic", STRING, "0+"),
                            field("Partitions", array(INT32), "0+"))), "0+"))), "0+"));

    private DescribeTransactionsMessages() {
    }
}
