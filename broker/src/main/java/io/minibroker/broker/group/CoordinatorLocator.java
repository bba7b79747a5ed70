package io.minibroker.broker.group;

import io.minibroker.broker.api.LocalNode;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;

/** Where FindCoordinator sends a group's clients: a broker's endpoint on the listener they asked on, or an error. */
@FunctionalInterface
public interface CoordinatorLocator {

    /** A coordinator's address, or an error (COORDINATOR_NOT_AVAILABLE) and no address. */
    record Coordinator(Errors error, int nodeId, String host, int port) {
        static Coordinator notAvailable() {
            return new Coordinator(Errors.COORDINATOR_NOT_AVAILABLE, -1, "", -1);
        }
    }

    Coordinator locate(String groupId, String listenerName);

    /** A single node coordinates every group itself. */
    static CoordinatorLocator singleNode(LocalNode node) {
        return (groupId, listenerName) -> {
            Optional<Endpoint> endpoint = node.endpointFor(listenerName);
            return endpoint.map(e -> new Coordinator(Errors.NONE, node.nodeId(), e.host(), e.port()))
                    .orElseGet(Coordinator::notAvailable);
        };
    }
}
