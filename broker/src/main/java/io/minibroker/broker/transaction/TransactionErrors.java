package io.minibroker.broker.transaction;

import io.minibroker.protocol.error.Errors;

/**
 * PRODUCER_FENCED came with KIP-588; clients older than it are told INVALID_PRODUCER_EPOCH instead, as Kafka's
 * KafkaApis answers them: InitProducerId before v4, AddPartitionsToTxn, AddOffsetsToTxn and EndTxn before v2.
 */
final class TransactionErrors {

    static final short INIT_PRODUCER_ID_FENCED_FROM = 4;
    static final short TXN_REQUEST_FENCED_FROM = 2;

    private TransactionErrors() {
    }

    static Errors forVersion(Errors error, short version, short producerFencedFrom) {
        return error == Errors.PRODUCER_FENCED && version < producerFencedFrom ? Errors.INVALID_PRODUCER_EPOCH : error;
    }
}
