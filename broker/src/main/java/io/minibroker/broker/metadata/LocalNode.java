package io.minibroker.broker.metadata;

import io.minibroker.broker.config.Endpoint;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * This broker as cluster metadata names it: its node id, its cluster, the address it advertises on each
 * listener and its {@code broker.rack} (null: none). Advertised listeners are read on each call: with port 0 the real
 * ports are known only once bound.
 */
public record LocalNode(int nodeId, String clusterId, Supplier<List<Endpoint>> advertisedListeners, String rack)
        implements BrokerDirectory {

    /** The advertised endpoint of the listener a request came on. */
    public Optional<Endpoint> endpointFor(String listenerName) {
        return advertisedListeners.get().stream().filter(e -> e.listenerName().equals(listenerName)).findFirst();
    }

    /** A single node is its own controller. */
    @Override
    public int controllerId() {
        return nodeId;
    }

    /** A single node knows only itself. */
    @Override
    public List<ListedBroker> brokers(String listenerName, boolean includeFenced) {
        // A single node is never fenced.
        return endpointFor(listenerName).map(e -> List.of(new ListedBroker(nodeId, e.host(), e.port(), rack, false)))
                .orElse(List.of());
    }
}
