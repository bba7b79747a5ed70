package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The channels from this node to the other brokers for one kind of request (a coordinator's markers, a leader's
 * AddPartitionsToTxn, the share-state persister's requests), one per node on the inter-broker listener, each used
 * from its own thread because the channel blocks: requests to one node go in order, and a slow node holds up no
 * other. A node found at a new address gets a new channel. Every request is answered: a request dropped from a
 * closed channel's queue, or sent after {@link #close()}, fails with an IOException, which each caller takes as a
 * node it could not reach and answers with its retriable error. Close is final, so a send racing it opens no
 * channel, and starts no thread, that only the channel's timeout would end.
 */
public final class NodeChannels implements AutoCloseable {

    private record Destination(String host, int port, NodeChannel channel, ExecutorService thread) {
    }

    /** One request on its way to a node, run on the node's thread. */
    private record Call(NodeChannel channel, ApiKey api, short version, Struct request,
                        CompletableFuture<Struct> answer) implements Runnable {

        @Override
        public void run() {
            try {
                answer.complete(channel.send(api, version, request));
            } catch (IOException | RuntimeException e) {
                answer.completeExceptionally(e);
            }
        }
    }

    private final String name;
    private final ClientSecurity security;
    private final int timeoutMs;
    private final Map<Integer, Destination> destinations = new HashMap<>();
    /** Set by close, under the lock: no destination is made after it. */
    private boolean closed;

    /** {@code name} names the channels' clients and threads, with the destination's node id. */
    public NodeChannels(String name, ClientSecurity security, int timeoutMs) {
        this.name = name;
        this.security = security;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Sends a request to a node in {@code version}; fails with the channel's IOException, or with one at once
     * after {@link #close()}. Queued under the lock that close takes, so a request is
     * either on a live thread's queue, where close finds it, or refused.
     */
    public CompletableFuture<Struct> send(BrokerNode node, ApiKey api, short version, Struct request) {
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        List<Runnable> dropped = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                answer.completeExceptionally(new IOException(name + " channels are closed"));
                return answer;
            }
            Destination destination = destinationOf(node, dropped);
            destination.thread().execute(new Call(destination.channel(), api, version, request, answer));
        }
        fail(dropped);
        return answer;
    }

    /** The node's destination, a new one if it moved: the old one is closed, its queue added to {@code dropped}. */
    private Destination destinationOf(BrokerNode node, List<Runnable> dropped) {
        Destination known = destinations.get(node.id());
        if (known != null && known.host().equals(node.host()) && known.port() == node.port()) {
            return known;
        }
        if (known != null) {
            dropped.addAll(close(known));
        }
        String client = name + "-" + node.id();
        Destination made = new Destination(node.host(), node.port(),
                new NodeChannel(node.host(), node.port(), client, timeoutMs, security),
                Executors.newSingleThreadExecutor(task -> new Thread(task, client)));
        destinations.put(node.id(), made);
        return made;
    }

    /** Fails the request under way (the abort); answers the requests queued behind it, which no thread will run. */
    private static List<Runnable> close(Destination destination) {
        destination.channel().abort();
        List<Runnable> dropped = destination.thread().shutdownNow();
        destination.channel().close();
        return dropped;
    }

    /** Outside the lock: the callers' callbacks run on completion and may send again. */
    private static void fail(List<Runnable> dropped) {
        for (Runnable call : dropped) {
            ((Call) call).answer().completeExceptionally(new IOException("channel closed before the request was sent"));
        }
    }

    @Override
    public void close() {
        List<Runnable> dropped = new ArrayList<>();
        synchronized (this) {
            closed = true;
            destinations.values().forEach(destination -> dropped.addAll(close(destination)));
            destinations.clear();
        }
        fail(dropped);
    }
}
