package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import static io.minibroker.broker.transaction.PartitionErrors.answersFor;
import static io.minibroker.broker.transaction.PartitionErrors.byTopic;
import static io.minibroker.broker.transaction.PartitionErrors.every;

/**
 * A cluster coordinator's markers for other nodes, queued per destination node as Kafka's
 * TransactionMarkerChannelManager queues them ({@link NodeBatches}): one WriteTxnMarkers in flight per node, and the
 * next carries every marker queued meanwhile, so transactions ending together cost one request per leader, not one
 * each. As in Kafka, whose answers are matched to markers by producer id, a request holds at most one marker of a
 * producer. A request that fails (the node unreachable, the channel closed) answers each of its partitions
 * NOT_LEADER_OR_FOLLOWER, which {@link TransactionMarkers} retries.
 */
final class MarkerQueues {

    private static final Logger LOG = LoggerFactory.getLogger(MarkerQueues.class);

    /** A marker waiting for its node's next request, and its partitions' answer. */
    private record Pending(TransactionMarker marker, List<TopicPartition> partitions,
                           CompletableFuture<Map<TopicPartition, Errors>> answer) {
    }

    private final NodeBatches<Pending, Struct> batches;

    /** @param send sends one WriteTxnMarkers request to a node: its response, or a failure */
    MarkerQueues(BiFunction<BrokerNode, Struct, CompletableFuture<Struct>> send) {
        batches = new NodeBatches<>(pending -> pending.marker().producerId(),
                (node, batch) -> send.apply(node, request(batch)), MarkerQueues::answer);
    }

    private static void answer(BrokerNode node, List<Pending> batch, Struct response, Throwable failure) {
        if (failure != null) {
            LOG.debug("WriteTxnMarkers to node {} failed: {}", node.id(), failure.toString());
            batch.forEach(pending -> pending.answer().complete(every(pending.partitions(),
                    Errors.NOT_LEADER_OR_FOLLOWER)));
            return;
        }
        Map<Long, Map<TopicPartition, Errors>> byProducer = answersByProducer(response);
        for (Pending pending : batch) {
            pending.answer().complete(answersFor(pending.partitions(),
                    byProducer.getOrDefault(pending.marker().producerId(), Map.of())));
        }
    }

    /** Queues the marker for these partitions led by {@code node}; completes with each partition's answer. */
    CompletableFuture<Map<TopicPartition, Errors>> enqueue(BrokerNode node, TransactionMarker marker,
                                                            List<TopicPartition> partitions) {
        Pending pending = new Pending(marker, List.copyOf(partitions), new CompletableFuture<>());
        batches.enqueue(node, pending);
        return pending.answer();
    }

    private static Struct request(List<Pending> batch) {
        WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
        for (Pending pending : batch) {
            TransactionMarker marker = pending.marker();
            WriteTxnMarkersRequestView.WritableTxnMarker written = request.addMarker()
                    .producerId(marker.producerId()).producerEpoch(marker.producerEpoch())
                    .coordinatorEpoch(marker.coordinatorEpoch())
                    .transactionResult(marker.result() == TransactionResult.COMMIT)
                    .transactionVersion((byte) marker.transactionVersion());
            byTopic(pending.partitions()).forEach((topic, indexes) ->
                    written.addTopic().name(topic).partitionIndexes(indexes));
        }
        return request.struct();
    }

    /** Each producer's answer for each partition, read once per response (a marker's answer is its producer's). */
    private static Map<Long, Map<TopicPartition, Errors>> answersByProducer(Struct response) {
        Map<Long, Map<TopicPartition, Errors>> byProducer = new HashMap<>();
        for (WriteTxnMarkersResponseView.WritableTxnMarkerResult marker
                : new WriteTxnMarkersResponseView(response).markers()) {
            Map<TopicPartition, Errors> answers = byProducer.computeIfAbsent(marker.producerId(),
                    id -> new HashMap<>());
            for (WriteTxnMarkersResponseView.WritableTxnMarkerTopicResult topic : marker.topics()) {
                for (WriteTxnMarkersResponseView.WritableTxnMarkerPartitionResult partition : topic.partitions()) {
                    answers.put(new TopicPartition(topic.name(), partition.partitionIndex()),
                            Errors.forCode(partition.errorCode()));
                }
            }
        }
        return byProducer;
    }
}
