package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.schema.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.minibroker.broker.transaction.ClusterMarkerAppender.byTopic;
import static io.minibroker.broker.transaction.ClusterMarkerAppender.every;

/**
 * A cluster coordinator's markers for other nodes, queued per destination node as Kafka's
 * TransactionMarkerChannelManager queues them: one WriteTxnMarkers in flight per node, and the next carries every
 * marker queued meanwhile, so transactions ending together cost one request per leader, not one each. As in Kafka,
 * whose answers are matched to markers by producer id, a request holds at most one marker of a producer; another of
 * the same producer waits for the next request. A request that fails (the node unreachable, the channel closed)
 * answers each of its partitions NOT_LEADER_OR_FOLLOWER, which {@link TransactionMarkers} retries.
 */
final class MarkerQueues {

    private static final Logger LOG = LoggerFactory.getLogger(MarkerQueues.class);

    /** Sends one WriteTxnMarkers request to a node; its response, or a failure. */
    interface Sender {
        CompletableFuture<Struct> send(BrokerNode node, Struct request);
    }

    /** A marker waiting for its node's next request, and its partitions' answer. */
    private record Pending(BrokerNode node, TransactionMarker marker, List<TopicPartition> partitions,
                           CompletableFuture<Map<TopicPartition, Errors>> answer) {
    }

    /** One node's queue and whether a request to it is in flight; guarded by the queues' lock. */
    private static final class Destination {
        final ArrayDeque<Pending> queued = new ArrayDeque<>();
        boolean inFlight;
    }

    private final Sender sender;
    private final Map<Integer, Destination> destinations = new HashMap<>();

    MarkerQueues(Sender sender) {
        this.sender = sender;
    }

    /** Queues the marker for these partitions led by {@code node}; completes with each partition's answer. */
    CompletableFuture<Map<TopicPartition, Errors>> enqueue(BrokerNode node, TransactionMarker marker,
                                                            List<TopicPartition> partitions) {
        Pending pending = new Pending(node, marker, List.copyOf(partitions), new CompletableFuture<>());
        List<Pending> batch;
        synchronized (this) {
            Destination destination = destinations.computeIfAbsent(node.id(), id -> new Destination());
            destination.queued.add(pending);
            batch = takeBatch(destination);
        }
        send(node.id(), batch);
        return pending.answer();
    }

    /** The next request's markers, if none is in flight to the node; none otherwise. Under the lock. */
    private static List<Pending> takeBatch(Destination destination) {
        if (destination.inFlight || destination.queued.isEmpty()) {
            return List.of();
        }
        List<Pending> batch = new ArrayList<>();
        Set<Long> producers = new HashSet<>();
        for (Iterator<Pending> it = destination.queued.iterator(); it.hasNext(); ) {
            Pending pending = it.next();
            if (producers.add(pending.marker().producerId())) {
                batch.add(pending);
                it.remove();
            }
        }
        destination.inFlight = true;
        return batch;
    }

    private void send(int nodeId, List<Pending> batch) {
        if (batch.isEmpty()) {
            return;
        }
        // The newest marker's node: its address is from the latest image.
        BrokerNode node = batch.get(batch.size() - 1).node();
        CompletableFuture<Struct> response;
        try {
            response = sender.send(node, request(batch));
        } catch (RuntimeException e) { // a channel that refuses at once fails as one that fails later
            response = CompletableFuture.failedFuture(e);
        }
        response.whenComplete((answered, failure) -> {
            if (failure != null) {
                LOG.debug("WriteTxnMarkers to node {} failed: {}", nodeId, failure.toString());
            }
            for (Pending pending : batch) {
                pending.answer().complete(failure != null
                        ? every(pending.partitions(), Errors.NOT_LEADER_OR_FOLLOWER)
                        : errorsOf(answered, pending));
            }
            List<Pending> next;
            synchronized (this) {
                Destination destination = destinations.get(nodeId);
                destination.inFlight = false;
                next = takeBatch(destination);
            }
            send(nodeId, next);
        });
    }

    private static Struct request(List<Pending> batch) {
        WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
        for (Pending pending : batch) {
            TransactionMarker marker = pending.marker();
            WriteTxnMarkersRequestView.WritableTxnMarker written = request.addMarker()
                    .producerId(marker.producerId()).producerEpoch(marker.producerEpoch())
                    .coordinatorEpoch(marker.coordinatorEpoch())
                    .transactionResult(marker.result() == TransactionResult.COMMIT);
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
