package io.minibroker.broker.group;

import io.minibroker.broker.transaction.TransactionalProducerInit;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transactional producer on a one-node broker, for the tests that send TxnOffsetCommit by hand: the broker verifies
 * each with the transaction coordinator, as Kafka does, so the producer needs a transaction holding the group's
 * offsets partition (AddOffsetsToTxn). Its timeout is longer than any test runs, so the coordinator never ends it:
 * the tests write its markers themselves.
 */
record TransactionalProducer(String transactionalId, long id, short epoch) {

    private static final int TRANSACTION_TIMEOUT_MS = 600_000;

    /**
     * InitProducerId for the transactional id, once FindCoordinator has the transaction state topic made and its
     * coordinator up ({@link TransactionalProducerInit}). Again for the same id, it bumps the epoch.
     */
    static TransactionalProducer init(GroupWireClient client, String transactionalId) {
        TransactionalProducerInit.Initialized initialized =
                TransactionalProducerInit.init(client::call, transactionalId, TRANSACTION_TIMEOUT_MS);
        return new TransactionalProducer(transactionalId, initialized.producerId(), initialized.epoch());
    }

    /** {@link #init} then AddOffsetsToTxn of the group: ready for its TxnOffsetCommits. */
    static TransactionalProducer begin(GroupWireClient client, String transactionalId, String groupId)
            throws IOException {
        TransactionalProducer producer = init(client, transactionalId);
        producer.addOffsets(client, groupId);
        return producer;
    }

    void addOffsets(GroupWireClient client, String groupId) throws IOException {
        Struct added = client.call(ApiKey.ADD_OFFSETS_TO_TXN, 3, ApiKey.ADD_OFFSETS_TO_TXN.request().newMessage()
                .set("TransactionalId", transactionalId).set("ProducerId", id).set("ProducerEpoch", epoch)
                .set("GroupId", groupId));
        assertThat(Errors.forCode(added.getInt16("ErrorCode"))).isEqualTo(Errors.NONE);
    }
}
