package io.minibroker.broker.transaction;

import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The channels from this node to the other brokers for one kind of request (a coordinator's markers, a leader's
 * AddPartitionsToTxn), one per node on the inter-broker listener, each used from its own thread because the channel
 * blocks: requests to one node go in order, and a slow node holds up no other. A node found at a new address gets a
 * new channel.
 */
public final class NodeChannels implements AutoCloseable {

    private record Destination(String host, int port, NodeChannel channel, ExecutorService thread) {
    }

    private final String name;
    private final ClientSecurity security;
    private final int timeoutMs;
    private final Map<Integer, Destination> destinations = new HashMap<>();

    /** {@code name} names the channels' clients and threads, with the destination's node id. */
    public NodeChannels(String name, ClientSecurity security, int timeoutMs) {
        this.name = name;
        this.security = security;
        this.timeoutMs = timeoutMs;
    }

    /** Sends a request to a node, in the API's highest stable version; fails with the channel's IOException. */
    public CompletableFuture<Struct> send(BrokerNode node, ApiKey api, short version, Struct request) {
        Destination destination = destinationOf(node);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return destination.channel().send(api, version, request);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, destination.thread());
    }

    private synchronized Destination destinationOf(BrokerNode node) {
        Destination known = destinations.get(node.id());
        if (known != null && known.host().equals(node.host()) && known.port() == node.port()) {
            return known;
        }
        if (known != null) {
            close(known);
        }
        String client = name + "-" + node.id();
        Destination made = new Destination(node.host(), node.port(),
                new NodeChannel(node.host(), node.port(), client, timeoutMs, security),
                Executors.newSingleThreadExecutor(task -> new Thread(task, client)));
        destinations.put(node.id(), made);
        return made;
    }

    private static void close(Destination destination) {
        destination.channel().abort();
        destination.thread().shutdownNow();
        destination.channel().close();
    }

    @Override
    public synchronized void close() {
        destinations.values().forEach(NodeChannels::close);
        destinations.clear();
    }
}
