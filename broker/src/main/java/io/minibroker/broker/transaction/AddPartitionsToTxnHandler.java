package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView.AddPartitionsToTxnTopic;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView.AddPartitionsToTxnTransaction;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView.AddPartitionsToTxnTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiPredicate;

/**
 * AddPartitionsToTxn. v0-3 are a client's (TV1): one transaction's partitions added. v4+ are a partition leader's
 * (KIP-890), a batch of transactions, each either verified ({@code VerifyOnly}: is the partition in the
 * transaction?) or added (v5, transaction version 2's implicit add). As Kafka: partitions of internal topics asked by
 * a client (v0-3) get TOPIC_AUTHORIZATION_FAILED, partitions that do not exist UNKNOWN_TOPIC_OR_PARTITION, and the
 * others of that transaction OPERATION_NOT_ATTEMPTED; an error of the
 * transaction as a whole is every partition's.
 */
public final class AddPartitionsToTxnHandler implements ApiHandler {

    private static final short BATCHED_FROM = 4;

    private final TransactionCoordinator coordinator;
    private final BiPredicate<String, Integer> partitionExists;

    public AddPartitionsToTxnHandler(TransactionCoordinator coordinator, BiPredicate<String, Integer> partitionExists) {
        this.coordinator = coordinator;
        this.partitionExists = partitionExists;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AddPartitionsToTxnRequestView body = new AddPartitionsToTxnRequestView(request.body());
        short version = request.version();
        AddPartitionsToTxnResponseView response = new AddPartitionsToTxnResponseView();
        if (version < BATCHED_FROM) {
            return addOrVerify(body.v3AndBelowTransactionalId(), body.v3AndBelowProducerId(),
                    body.v3AndBelowProducerEpoch(), partitions(body.v3AndBelowTopics()), false, version)
                    .thenApply(results -> {
                        fill(results, response::addResultsByTopicV3AndBelow);
                        return response.struct();
                    });
        }
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (AddPartitionsToTxnTransaction transaction : body.transactions()) {
            AddPartitionsToTxnResponseView.AddPartitionsToTxnResult result = response.addResultsByTransaction()
                    .transactionalId(transaction.transactionalId());
            all.add(addOrVerify(transaction.transactionalId(), transaction.producerId(), transaction.producerEpoch(),
                    partitions(transaction.topics()), transaction.verifyOnly(), version)
                    .thenAccept(results -> fill(results, result::addTopicResult)));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(nothing -> response.errorCode(Errors.NONE.code()).struct());
    }

    /** A partition as asked for: it may name no partition that could exist. */
    private record Requested(String topic, int partition) {
        boolean exists(BiPredicate<String, Integer> partitionExists) {
            return TopicPartition.isValid(topic, partition) && partitionExists.test(topic, partition);
        }
    }

    /**
     * Why a requested partition cannot be added, NONE if it can: as Kafka, a client (v0-3) may never add an internal
     * topic's partition (TOPIC_AUTHORIZATION_FAILED, with or without an authorizer), and one that does not exist is
     * UNKNOWN_TOPIC_OR_PARTITION.
     */
    private Errors refusal(Requested partition, short version) {
        if (version < BATCHED_FROM && InternalTopics.isInternal(partition.topic())) {
            return Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        return partition.exists(partitionExists) ? Errors.NONE : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    private CompletableFuture<Map<Requested, Errors>> addOrVerify(String transactionalId, long producerId,
                                                                  short epoch, Set<Requested> requested,
                                                                  boolean verifyOnly, short version) {
        if (!requested.stream().allMatch(partition -> refusal(partition, version) == Errors.NONE)) {
            Map<Requested, Errors> results = new LinkedHashMap<>();
            requested.forEach(partition -> {
                Errors refused = refusal(partition, version);
                results.put(partition, refused == Errors.NONE ? Errors.OPERATION_NOT_ATTEMPTED : refused);
            });
            return CompletableFuture.completedFuture(results);
        }
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        requested.forEach(partition -> partitions.add(new TopicPartition(partition.topic(), partition.partition())));
        return addOrVerifyExisting(transactionalId, producerId, epoch, partitions, verifyOnly, version)
                .thenApply(results -> {
                    Map<Requested, Errors> byRequest = new LinkedHashMap<>();
                    results.forEach((partition, error) -> byRequest.put(
                            new Requested(partition.topic(), partition.partition()), error));
                    return byRequest;
                });
    }

    private CompletableFuture<Map<TopicPartition, Errors>> addOrVerifyExisting(String transactionalId,
                                                                               long producerId, short epoch,
                                                                               Set<TopicPartition> partitions,
                                                                               boolean verifyOnly, short version) {
        if (verifyOnly) {
            // KIP-890: from v5 a partition not in the transaction is abortable for the producer.
            Errors notInTransaction = version >= 5 ? Errors.TRANSACTION_ABORTABLE : Errors.INVALID_TXN_STATE;
            return coordinator.verifyPartitions(transactionalId, producerId, epoch, partitions, notInTransaction);
        }
        short clientTransactionVersion = (short) (version >= 5 ? 2 : 0);
        return coordinator.addPartitions(transactionalId, producerId, epoch, partitions, clientTransactionVersion)
                .thenApply(error -> {
                    Errors answered = TransactionErrors.forVersion(error, version,
                            TransactionErrors.TXN_REQUEST_FENCED_FROM);
                    Map<TopicPartition, Errors> results = new LinkedHashMap<>();
                    partitions.forEach(partition -> results.put(partition, answered));
                    return results;
                });
    }

    private static Set<Requested> partitions(List<AddPartitionsToTxnTopic> topics) {
        Set<Requested> partitions = new LinkedHashSet<>();
        for (AddPartitionsToTxnTopic topic : topics) {
            for (int index : topic.partitions()) {
                partitions.add(new Requested(topic.name(), index));
            }
        }
        return partitions;
    }

    private static void fill(Map<Requested, Errors> results,
                             java.util.function.Supplier<AddPartitionsToTxnTopicResult> addTopic) {
        Map<String, AddPartitionsToTxnTopicResult> byTopic = new HashMap<>();
        results.forEach((partition, error) -> byTopic.computeIfAbsent(partition.topic(),
                        topic -> addTopic.get().name(topic))
                .addResultsByPartition().partitionIndex(partition.partition()).partitionErrorCode(error.code()));
    }
}
