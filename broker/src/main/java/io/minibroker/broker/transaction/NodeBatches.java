package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Items for other nodes, queued per destination node and sent in batches as Kafka's inter-broker senders send them
 * (TransactionMarkerChannelManager's markers, AddPartitionsToTxnManager's transactions): one request in flight per
 * node, and the next carries every item queued meanwhile, so that work arriving together costs one request per node.
 * Items with the same key (a producer, a transactional id) never share a request, since a response tells its
 * answers apart by that key: a later one waits for the next request.
 *
 * @param <I> an item, which carries its own answer
 * @param <R> a response
 */
final class NodeBatches<I, R> {

    /** Sends one request carrying these items to a node: its response, or a failure. */
    interface Sender<I, R> {
        CompletionStage<R> send(BrokerNode node, List<I> batch);
    }

    /** Answers each item of a request from its response, or from its failure (the response then null). */
    interface Answerer<I, R> {
        void answer(BrokerNode node, List<I> batch, R response, Throwable failure);
    }

    /** An item and the node it is for (the address the latest image gave when it was queued). */
    private record Queued<I>(BrokerNode node, I item) {
    }

    /** One node's queue and whether a request to it is in flight; guarded by the batches' lock. */
    private static final class Destination<I> {
        final ArrayDeque<Queued<I>> queued = new ArrayDeque<>();
        boolean inFlight;
    }

    private final Function<I, Object> key;
    private final Sender<I, R> sender;
    private final Answerer<I, R> answerer;
    private final Map<Integer, Destination<I>> destinations = new HashMap<>();

    /** @param key what tells two items' answers apart in a response: two items of one key go in two requests */
    NodeBatches(Function<I, Object> key, Sender<I, R> sender, Answerer<I, R> answerer) {
        this.key = key;
        this.sender = sender;
        this.answerer = answerer;
    }

    /** Queues the item for the node; sent at once if no request to the node is in flight. */
    void enqueue(BrokerNode node, I item) {
        List<Queued<I>> batch;
        synchronized (this) {
            Destination<I> destination = destinations.computeIfAbsent(node.id(), id -> new Destination<>());
            destination.queued.add(new Queued<>(node, item));
            batch = takeBatch(destination);
        }
        send(node.id(), batch);
    }

    /** The next request's items, if none is in flight to the node; none otherwise. Under the lock. */
    private List<Queued<I>> takeBatch(Destination<I> destination) {
        if (destination.inFlight || destination.queued.isEmpty()) {
            return List.of();
        }
        List<Queued<I>> batch = new ArrayList<>();
        Set<Object> keys = new HashSet<>();
        for (Iterator<Queued<I>> it = destination.queued.iterator(); it.hasNext(); ) {
            Queued<I> queued = it.next();
            if (keys.add(key.apply(queued.item()))) {
                batch.add(queued);
                it.remove();
            }
        }
        destination.inFlight = true;
        return batch;
    }

    private void send(int nodeId, List<Queued<I>> batch) {
        if (batch.isEmpty()) {
            return;
        }
        // The newest item's node: its address is from the latest image.
        BrokerNode node = batch.get(batch.size() - 1).node();
        List<I> items = batch.stream().map(Queued::item).toList();
        CompletionStage<R> response;
        try {
            response = sender.send(node, items);
        } catch (RuntimeException e) { // a channel that refuses at once (closed) fails as one that fails later
            response = CompletableFuture.failedFuture(e);
        }
        response.whenComplete((answered, failure) -> {
            try {
                try {
                    answerer.answer(node, items, answered, failure);
                } catch (RuntimeException unreadable) { // a response that cannot be read answers as a failed request
                    answerer.answer(node, items, null, unreadable);
                }
            } finally { // an answerer that throws must not leave the node's queue waiting for good
                List<Queued<I>> next;
                synchronized (this) {
                    Destination<I> destination = destinations.get(nodeId);
                    destination.inFlight = false;
                    next = takeBatch(destination);
                }
                send(nodeId, next);
            }
        });
    }
}
