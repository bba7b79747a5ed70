package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import static io.minibroker.broker.server.Eventually.await;
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
     * coordinator up. Again for the same id, it bumps the epoch.
     */
    static TransactionalProducer init(GroupWireClient client, String transactionalId) {
        TransactionalProducer[] initialized = new TransactionalProducer[1];
        await(() -> {
            try {
                Struct found = client.call(ApiKey.FIND_COORDINATOR, 4, ApiKey.FIND_COORDINATOR.request().newMessage()
                        .set("KeyType", (byte) 1).set("CoordinatorKeys", List.of(transactionalId)));
                if (found.getStructs("Coordinators").get(0).getInt16("ErrorCode") != 0) {
                    return false;
                }
                Struct answer = client.call(ApiKey.INIT_PRODUCER_ID, 3, ApiKey.INIT_PRODUCER_ID.request()
                        .newMessage().set("TransactionalId", transactionalId)
                        .set("TransactionTimeoutMs", TRANSACTION_TIMEOUT_MS).set("ProducerId", -1L)
                        .set("ProducerEpoch", (short) -1));
                initialized[0] = new TransactionalProducer(transactionalId, answer.getInt64("ProducerId"),
                        answer.getInt16("ProducerEpoch"));
                return answer.getInt16("ErrorCode") == 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "InitProducerId for " + transactionalId);
        return initialized[0];
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
