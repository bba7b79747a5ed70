package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import static io.minibroker.broker.transaction.PartitionErrors.answersFor;
import static io.minibroker.broker.transaction.PartitionErrors.byTopic;
import static io.minibroker.broker.transaction.PartitionErrors.every;

/**
 * A leader's questions to other nodes' transaction coordinators, queued per coordinator node as Kafka's
 * AddPartitionsToTxnManager queues them ({@link NodeBatches}): one AddPartitionsToTxn v5 in flight per node, the next
 * carrying every transaction queued meanwhile, each verify-only or adding as its produce asks. A request holds one
 * entry per transactional id, as the response tells them apart by it; another question about the same id waits for
 * the next request (Kafka instead answers the one of the lower epoch INVALID_PRODUCER_EPOCH, or the older of two at
 * one epoch NETWORK_EXCEPTION, at once; asked in turn, the coordinator gives the same answers). A whole-request error
 * is every transaction's, CLUSTER_AUTHORIZATION_FAILED turned into INVALID_TXN_STATE as Kafka does, so the client
 * never sees an inter-broker refusal; a request that fails (the node unreachable) is COORDINATOR_NOT_AVAILABLE for
 * each, which the produce retries.
 */
final class AddPartitionsQueues {

    private static final Logger LOG = LoggerFactory.getLogger(AddPartitionsQueues.class);

    /** One transaction's question and its partitions' answer. */
    private record Pending(String transactionalId, long producerId, short producerEpoch,
                           List<TopicPartition> partitions, boolean verifyOnly,
                           CompletableFuture<Map<TopicPartition, Errors>> answer) {
    }

    private final NodeBatches<Pending, Struct> batches;

    /** @param send sends one AddPartitionsToTxn v5 request to a node: its response, or a failure */
    AddPartitionsQueues(BiFunction<BrokerNode, Struct, CompletableFuture<Struct>> send) {
        batches = new NodeBatches<>(Pending::transactionalId, (node, batch) -> send.apply(node, request(batch)),
                AddPartitionsQueues::answer);
    }

    /**
     * Asks the coordinator on {@code node} to add these partitions to the transaction, or only to say whether they
     * are in it; completes with its answer for each partition.
     */
    CompletableFuture<Map<TopicPartition, Errors>> enqueue(BrokerNode node, String transactionalId, long producerId,
                                                            short producerEpoch, Collection<TopicPartition> partitions,
                                                            boolean verifyOnly) {
        Pending pending = new Pending(transactionalId, producerId, producerEpoch, List.copyOf(partitions), verifyOnly,
                new CompletableFuture<>());
        batches.enqueue(node, pending);
        return pending.answer();
    }

    private static Struct request(List<Pending> batch) {
        AddPartitionsToTxnRequestView request = new AddPartitionsToTxnRequestView();
        for (Pending pending : batch) {
            AddPartitionsToTxnRequestView.AddPartitionsToTxnTransaction transaction = request.addTransaction()
                    .transactionalId(pending.transactionalId()).producerId(pending.producerId())
                    .producerEpoch(pending.producerEpoch()).verifyOnly(pending.verifyOnly());
            byTopic(pending.partitions()).forEach((topic, indexes) ->
                    transaction.addTopic().name(topic).partitions(indexes));
        }
        return request.struct();
    }

    private static void answer(BrokerNode node, List<Pending> batch, Struct response, Throwable failure) {
        if (failure != null) {
            LOG.debug("AddPartitionsToTxn to node {} failed: {}", node.id(), failure.toString());
            batch.forEach(pending -> pending.answer().complete(every(pending.partitions(),
                    Errors.COORDINATOR_NOT_AVAILABLE)));
            return;
        }
        AddPartitionsToTxnResponseView answer = new AddPartitionsToTxnResponseView(response);
        Errors whole = Errors.forCode(answer.errorCode());
        if (whole != Errors.NONE) {
            Errors error = whole == Errors.CLUSTER_AUTHORIZATION_FAILED ? Errors.INVALID_TXN_STATE : whole;
            batch.forEach(pending -> pending.answer().complete(every(pending.partitions(), error)));
            return;
        }
        Map<String, Map<TopicPartition, Errors>> byTransaction = answersByTransaction(answer);
        batch.forEach(pending -> pending.answer().complete(answersFor(pending.partitions(),
                byTransaction.getOrDefault(pending.transactionalId(), Map.of()))));
    }

    /** Each transaction's answer for each partition, read once per response. */
    private static Map<String, Map<TopicPartition, Errors>> answersByTransaction(
            AddPartitionsToTxnResponseView answer) {
        Map<String, Map<TopicPartition, Errors>> byTransaction = new HashMap<>();
        for (AddPartitionsToTxnResponseView.AddPartitionsToTxnResult transaction : answer.resultsByTransaction()) {
            Map<TopicPartition, Errors> answers = byTransaction.computeIfAbsent(transaction.transactionalId(),
                    id -> new HashMap<>());
            for (AddPartitionsToTxnResponseView.AddPartitionsToTxnTopicResult topic : transaction.topicResults()) {
                for (AddPartitionsToTxnResponseView.AddPartitionsToTxnPartitionResult partition
                        : topic.resultsByPartition()) {
                    answers.put(new TopicPartition(topic.name(), partition.partitionIndex()),
                            Errors.forCode(partition.partitionErrorCode()));
                }
            }
        }
        return byTransaction;
    }
}
