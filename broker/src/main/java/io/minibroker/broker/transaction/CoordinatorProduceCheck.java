package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.TransactionalProduceCheck;
import io.minibroker.protocol.error.Errors;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * {@link TransactionalProduceCheck} on a node that coordinates the transaction itself (a single node, or a cluster's
 * node leading the id's {@code __transaction_state} partition, through {@link ClusterProduceCheck}): the
 * coordinator is asked directly, as a leader would ask it with AddPartitionsToTxn v5 (add) or v4 (verify only).
 * Errors the producer should retry on (the coordinator busy, moving, loading) become NOT_ENOUGH_REPLICAS, which
 * every client retries, as Kafka's ReplicaManager maps them; CONCURRENT_TRANSACTIONS stays itself for a TV2 client
 * (Produce v12+), which retries it. A fenced producer is told INVALID_PRODUCER_EPOCH, and TRANSACTION_ABORTABLE is
 * INVALID_TXN_STATE below Produce v11, as Kafka's AddPartitionsToTxnManager tells them (PRODUCER_FENCED comes with
 * the producer's EndTxn); any other error is passed on as it is, as Kafka does. An implicit
 * add that finds the last transaction still completing is asked again first, as Kafka's leader does
 * ({@code add.partitions.to.txn.retry.backoff.ms}, {@code add.partitions.to.txn.retry.backoff.max.ms}, waited on
 * the broker's clock), whichever node coordinates the transaction: {@link ClusterProduceCheck} retries through
 * {@link #askAgainWhileConcurrent} too.
 */
public final class CoordinatorProduceCheck implements TransactionalProduceCheck {

    /** Produce v11+: the client knows TRANSACTION_ABORTABLE. */
    private static final short ABORTABLE_FROM = 11;

    private final TransactionCoordinator coordinator;
    private final long addRetryBackoffMs;
    private final long addRetryBackoffMaxMs;
    private final BackoffTimer backoffs;

    /**
     * @param addRetryBackoffMs    {@code add.partitions.to.txn.retry.backoff.ms}: the wait before asking again
     * @param addRetryBackoffMaxMs {@code add.partitions.to.txn.retry.backoff.max.ms}: how long to keep asking
     * @param backoffs             the broker's, where the retries wait
     */
    public CoordinatorProduceCheck(TransactionCoordinator coordinator, long addRetryBackoffMs,
                                   long addRetryBackoffMaxMs, BackoffTimer backoffs) {
        this.coordinator = coordinator;
        this.addRetryBackoffMs = addRetryBackoffMs;
        this.addRetryBackoffMaxMs = addRetryBackoffMaxMs;
        this.backoffs = backoffs;
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> beforeAppend(String transactionalId, long producerId,
                                                                       short producerEpoch,
                                                                       Collection<TopicPartition> partitions,
                                                                       short produceVersion) {
        return askAgainWhileConcurrent(() -> ask(transactionalId, producerId, producerEpoch, partitions,
                produceVersion), produceVersion).thenApply(errors -> forProduce(errors, produceVersion));
    }

    /**
     * {@code check} with verification off ({@code transaction.partition.verification.enable=false}), as Kafka's
     * leader: a transaction version 2 produce still adds its partitions through it; an older one's partitions are
     * appended unasked.
     */
    public static TransactionalProduceCheck addingOnly(TransactionalProduceCheck check) {
        return new TransactionalProduceCheck() {
            @Override
            public CompletionStage<Map<TopicPartition, Errors>> beforeAppend(
                    String transactionalId, long producerId, short producerEpoch,
                    Collection<TopicPartition> partitions, short produceVersion) {
                return addsImplicitly(produceVersion)
                        ? check.beforeAppend(transactionalId, producerId, producerEpoch, partitions, produceVersion)
                        : CompletableFuture.completedFuture(PartitionErrors.every(partitions, Errors.NONE));
            }

            @Override
            public boolean verifiesPartitions() {
                return false;
            }
        };
    }

    /** This node's coordinator's own answer for each partition, asked once. */
    CompletionStage<Map<TopicPartition, Errors>> ask(String transactionalId, long producerId, short producerEpoch,
                                                     Collection<TopicPartition> partitions, short produceVersion) {
        if (addsImplicitly(produceVersion)) {
            return coordinator.addPartitions(transactionalId, producerId, producerEpoch, partitions, (short) 2)
                    .thenApply(error -> PartitionErrors.every(partitions, error));
        }
        Errors notInTransaction = produceVersion >= ABORTABLE_FROM
                ? Errors.TRANSACTION_ABORTABLE : Errors.INVALID_TXN_STATE;
        return coordinator.verifyPartitions(transactionalId, producerId, producerEpoch, partitions, notInTransaction);
    }

    /**
     * Kafka's leader retry, wherever the coordinator is: an implicit add whose answer is CONCURRENT_TRANSACTIONS (the
     * transaction's last markers still being written) is asked again every {@code addRetryBackoffMs} for up to
     * {@code addRetryBackoffMaxMs} before the producer is answered, whose own retry would wait
     * {@code retry.backoff.ms}. A verification is asked once.
     *
     * @param ask the coordinator's answers, asked anew at each call
     */
    CompletionStage<Map<TopicPartition, Errors>> askAgainWhileConcurrent(
            Supplier<CompletionStage<Map<TopicPartition, Errors>>> ask, short produceVersion) {
        return addsImplicitly(produceVersion) ? askAgain(ask, addRetryBackoffMaxMs) : ask.get();
    }

    private CompletionStage<Map<TopicPartition, Errors>> askAgain(
            Supplier<CompletionStage<Map<TopicPartition, Errors>>> ask, long budgetMs) {
        return ask.get().thenCompose(errors -> {
            if (!errors.containsValue(Errors.CONCURRENT_TRANSACTIONS) || budgetMs < addRetryBackoffMs) {
                return CompletableFuture.completedFuture(errors);
            }
            return backoffs.after(addRetryBackoffMs)
                    .thenCompose(waited -> askAgain(ask, budgetMs - addRetryBackoffMs));
        });
    }

    /** Produce v12+ adds the partitions to the transaction; below, they are only verified. */
    static boolean addsImplicitly(short produceVersion) {
        return TransactionalProduceCheck.usesTransactionVersion2(produceVersion);
    }

    /** Each partition's coordinator answer as the produce answers it. */
    static Map<TopicPartition, Errors> forProduce(Map<TopicPartition, Errors> errors, short produceVersion) {
        Map<TopicPartition, Errors> mapped = new HashMap<>();
        errors.forEach((partition, error) -> mapped.put(partition, forProduce(error, produceVersion)));
        return mapped;
    }

    /**
     * A coordinator's answer as the produce answers it. Also for a coordinator on another node, whose answer may be
     * about the request (a partition its image does not have yet: retried) or be v5's TRANSACTION_ABORTABLE for a
     * client that predates it.
     */
    static Errors forProduce(Errors error, short produceVersion) {
        return switch (error) {
            case NONE, INVALID_PRODUCER_EPOCH, INVALID_TXN_STATE -> error;
            // As Kafka's AddPartitionsToTxnManager: a producer handles a fenced epoch on a produce as
            // INVALID_PRODUCER_EPOCH (abortable); its EndTxn then meets PRODUCER_FENCED, which is fatal.
            case PRODUCER_FENCED -> Errors.INVALID_PRODUCER_EPOCH;
            case TRANSACTION_ABORTABLE -> produceVersion >= ABORTABLE_FROM ? error : Errors.INVALID_TXN_STATE;
            // Kafka: "less confusing" for a TV2 client, for which it is common while the last transaction completes.
            case CONCURRENT_TRANSACTIONS -> addsImplicitly(produceVersion) ? error : Errors.NOT_ENOUGH_REPLICAS;
            case COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, NETWORK_EXCEPTION,
                 REQUEST_TIMED_OUT, UNKNOWN_TOPIC_OR_PARTITION, OPERATION_NOT_ATTEMPTED -> Errors.NOT_ENOUGH_REPLICAS;
            // A leader not allowed to ask the coordinator did not verify: Kafka's AddPartitionsToTxnManager says so.
            case CLUSTER_AUTHORIZATION_FAILED -> Errors.INVALID_TXN_STATE;
            default -> error;
        };
    }
}
