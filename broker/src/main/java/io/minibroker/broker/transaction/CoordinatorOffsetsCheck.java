package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@link TransactionalOffsetsCheck} through the transaction coordinator of the id, wherever it is: from
 * TxnOffsetCommit v5 the offsets partition is added to the transaction as a transactional Produce v12 adds its
 * partition (the same {@link TransactionalProduceCheck}: this node's coordinator, or AddPartitionsToTxn v5 to the
 * coordinator's node in a cluster). Below v5 the client has sent AddOffsetsToTxn itself and nothing is asked. The
 * produce-shaped answer is turned into TxnOffsetCommit's: a retriable one (the transaction busy with its previous
 * EndTxn, the coordinator loading, moving or unreachable, which a produce answers NOT_ENOUGH_REPLICAS) becomes
 * COORDINATOR_NOT_AVAILABLE, so the client looks the coordinator up again; a fenced producer's INVALID_PRODUCER_EPOCH
 * goes through; any other means the transaction went wrong: TRANSACTION_ABORTABLE, which v5 clients know.
 */
public final class CoordinatorOffsetsCheck implements TransactionalOffsetsCheck {

    /** TxnOffsetCommit v5+: the client uses transaction version 2. */
    private static final short IMPLICIT_ADD_FROM = 5;
    /** The Produce version whose transactional batches add their partitions implicitly (KIP-890). */
    private static final short ADDING_PRODUCE_VERSION = 12;

    private final TransactionalProduceCheck adder;

    public CoordinatorOffsetsCheck(TransactionalProduceCheck adder) {
        this.adder = adder;
    }

    @Override
    public CompletionStage<Errors> beforeCommit(String transactionalId, long producerId, short producerEpoch,
                                                TopicPartition offsetsPartition, short txnOffsetCommitVersion) {
        if (txnOffsetCommitVersion < IMPLICIT_ADD_FROM) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        return adder.beforeAppend(transactionalId, producerId, producerEpoch, List.of(offsetsPartition),
                ADDING_PRODUCE_VERSION).thenApply(results -> forTxnOffsetCommit(
                        results.getOrDefault(offsetsPartition, Errors.UNKNOWN_SERVER_ERROR)));
    }

    private static Errors forTxnOffsetCommit(Errors error) {
        return switch (error) {
            case NONE, INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE -> error;
            case NOT_ENOUGH_REPLICAS, CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
                 NOT_COORDINATOR, REQUEST_TIMED_OUT -> Errors.COORDINATOR_NOT_AVAILABLE;
            default -> Errors.TRANSACTION_ABORTABLE;
        };
    }
}
