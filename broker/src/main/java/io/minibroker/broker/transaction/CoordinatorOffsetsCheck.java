package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@link TransactionalOffsetsCheck} through the transaction coordinator of the id, wherever it is, as Kafka's group
 * coordinator asks it by TxnOffsetCommit version: from v5 (transaction version 2) the offsets partition is added to
 * the transaction as a transactional Produce v12 adds its partition; v4 and below only verify that the client's
 * AddOffsetsToTxn put it there, v4 answering TRANSACTION_ABORTABLE when it did not and v0-3 (whose clients do not
 * know that error) INVALID_TXN_STATE, as a Produce v11 and v10 are answered (the same
 * {@link TransactionalProduceCheck}: this node's coordinator, or AddPartitionsToTxn to the coordinator's node in a
 * cluster). The produce-shaped answer is turned into TxnOffsetCommit's: a retriable one (the transaction busy with its
 * previous EndTxn, the coordinator loading, moving or unreachable, which a produce answers NOT_ENOUGH_REPLICAS)
 * becomes COORDINATOR_NOT_AVAILABLE, so the client looks the coordinator up again; a fenced producer's
 * INVALID_PRODUCER_EPOCH, the abortable errors and INVALID_PRODUCER_ID_MAPPING (an id the coordinator does not
 * know, or another producer's id: Kafka's group coordinator passes its transaction coordinator's answer on) go
 * through; any other means the transaction went wrong: the abortable error the version's client knows.
 */
public final class CoordinatorOffsetsCheck implements TransactionalOffsetsCheck {

    /** TxnOffsetCommit v5+: the client uses transaction version 2; the Produce version that adds (KIP-890). */
    private static final short IMPLICIT_ADD_FROM = 5;
    private static final short ADDING_PRODUCE_VERSION = 12;
    /** TxnOffsetCommit v4: the client knows TRANSACTION_ABORTABLE, as from Produce v11. */
    private static final short ABORTABLE_FROM = 4;
    private static final short ABORTABLE_PRODUCE_VERSION = 11;
    /** TxnOffsetCommit v0-3: told INVALID_TXN_STATE instead, as up to Produce v10. */
    private static final short INVALID_TXN_STATE_PRODUCE_VERSION = 10;

    private final TransactionalProduceCheck adder;

    public CoordinatorOffsetsCheck(TransactionalProduceCheck adder) {
        this.adder = adder;
    }

    @Override
    public CompletionStage<Errors> beforeCommit(String transactionalId, long producerId, short producerEpoch,
                                                TopicPartition offsetsPartition, short txnOffsetCommitVersion) {
        short produceVersion = txnOffsetCommitVersion >= IMPLICIT_ADD_FROM ? ADDING_PRODUCE_VERSION
                : txnOffsetCommitVersion >= ABORTABLE_FROM ? ABORTABLE_PRODUCE_VERSION
                : INVALID_TXN_STATE_PRODUCE_VERSION;
        return adder.beforeAppend(transactionalId, producerId, producerEpoch, List.of(offsetsPartition),
                produceVersion).thenApply(results -> forTxnOffsetCommit(
                        results.getOrDefault(offsetsPartition, Errors.UNKNOWN_SERVER_ERROR), txnOffsetCommitVersion));
    }

    @Override
    public boolean verifiesPartitions() {
        return adder.verifiesPartitions();
    }

    private static Errors forTxnOffsetCommit(Errors error, short version) {
        return switch (error) {
            case NONE, INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE, INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING ->
                    error;
            case NOT_ENOUGH_REPLICAS, CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
                 NOT_COORDINATOR, REQUEST_TIMED_OUT -> Errors.COORDINATOR_NOT_AVAILABLE;
            default -> version >= ABORTABLE_FROM ? Errors.TRANSACTION_ABORTABLE : Errors.INVALID_TXN_STATE;
        };
    }
}
