package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@link TransactionalOffsetsCheck} on a node that coordinates the transaction itself (a single node): from
 * TxnOffsetCommit v5 the coordinator adds the offsets partition as AddPartitionsToTxn v5 would. Below, the client
 * has sent AddOffsetsToTxn itself and nothing is asked. Errors the client retries after looking the coordinator up
 * again (the transaction busy with its previous EndTxn, the coordinator loading) become COORDINATOR_NOT_AVAILABLE;
 * fencing errors go through; any other means the transaction went wrong: TRANSACTION_ABORTABLE, which v5 clients
 * know.
 */
public final class CoordinatorOffsetsCheck implements TransactionalOffsetsCheck {

    /** TxnOffsetCommit v5+: the client uses transaction version 2. */
    private static final short IMPLICIT_ADD_FROM = 5;

    private final TransactionCoordinator coordinator;

    public CoordinatorOffsetsCheck(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Errors> beforeCommit(String transactionalId, long producerId, short producerEpoch,
                                                TopicPartition offsetsPartition, short txnOffsetCommitVersion) {
        if (txnOffsetCommitVersion < IMPLICIT_ADD_FROM) {
            return CompletableFuture.completedFuture(Errors.NONE);
        }
        return coordinator.addPartitions(transactionalId, producerId, producerEpoch, List.of(offsetsPartition),
                (short) 2).thenApply(CoordinatorOffsetsCheck::forTxnOffsetCommit);
    }

    private static Errors forTxnOffsetCommit(Errors error) {
        return switch (error) {
            case NONE, PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE -> error;
            case CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR,
                 REQUEST_TIMED_OUT -> Errors.COORDINATOR_NOT_AVAILABLE;
            default -> Errors.TRANSACTION_ABORTABLE;
        };
    }
}
