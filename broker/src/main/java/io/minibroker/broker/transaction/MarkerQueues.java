package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import static io.minibroker.broker.transaction.ClusterMarkerAppender.byTopic;
import static io.minibroker.broker.transaction.ClusterMarkerAppender.every;

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
        }
        for (Pending pending : batch) {
            pending.answer().complete(failure != null
                    ? every(pending.partitions(), Errors.NOT_LEADER_OR_FOLLOWER) : errorsOf(response, pending));
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

    /** The answer of the marker's producer for each of its partitions; one left unanswered is an unknown error. */
    private static Map<TopicPartition, Errors> errorsOf(Struct response, Pending pending) {
        Map<TopicPartition, Errors> errors = every(pending.partitions(), Errors.UNKNOWN_SERVER_ERROR);
        for (WriteTxnMarkersResponseView.WritableTxnMarkerResult marker
                : new WriteTxnMarkersResponseView(response).markers()) {
            if (marker.producerId() != pending.marker().producerId()) {
                continue;
            }
            for (WriteTxnMarkersResponseView.WritableTxnMarkerTopicResult topic : marker.topics()) {
                for (WriteTxnMarkersResponseView.WritableTxnMarkerPartitionResult partition : topic.partitions()) {
                    TopicPartition answered = new TopicPartition(topic.name(), partition.partitionIndex());
                    if (errors.containsKey(answered)) {
                        errors.put(answered, Errors.forCode(partition.errorCode()));
                    }
                }
            }
        }
        return errors;
    }
}
