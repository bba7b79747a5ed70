package io.minibroker.testkit.container;

import io.minibroker.broker.server.MetadataRoundTrip;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

import java.io.IOException;
import java.util.List;

/**
 * Ready when the broker answers a Metadata request through the mapped port and advertises exactly the address
 * the request went to, so that a client's first request after start succeeds and its reconnect (to the
 * advertised address) lands on the same broker. For a cluster in the container: when every node lists every
 * node at its host address (all have registered with the controller, and each node has fetched an image of them
 * all; asking node 0 alone would let a client's first request land on a node whose image still lacks some).
 */
final class AdvertisedListenerWaitStrategy extends AbstractWaitStrategy {

    private static final long RETRY_PAUSE_MS = 20;

    private final List<Integer> containerPorts;
    private final String saslUser;
    private final String saslPassword;

    /**
     * @param containerPorts each node's client port, node 0's first
     * @param saslUser the SASL/PLAIN user to authenticate as first, or null where the listener has no SASL
     */
    AdvertisedListenerWaitStrategy(List<Integer> containerPorts, String saslUser, String saslPassword) {
        this.containerPorts = List.copyOf(containerPorts);
        this.saslUser = saslUser;
        this.saslPassword = saslPassword;
    }

    @Override
    protected void waitUntilReady() {
        String host = waitStrategyTarget.getHost();
        List<Integer> ports = containerPorts.stream().map(waitStrategyTarget::getMappedPort).toList();
        List<String> expected = ports.stream().map(port -> host + ":" + port).toList();
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (!ports.stream().allMatch(port -> advertises(host, port, expected))) {
            if (!waitStrategyTarget.isRunning()) {
                throw new ContainerLaunchException("minibroker exited before it was ready; see its log");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new ContainerLaunchException("minibroker did not answer Metadata advertising " + expected
                        + " within " + startupTimeout);
            }
            try {
                Thread.sleep(RETRY_PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ContainerLaunchException("interrupted while waiting for minibroker", e);
            }
        }
    }

    private boolean advertises(String host, int port, List<String> expected) {
        try {
            List<String> brokers = MetadataRoundTrip.advertisedBrokers(host, port, saslUser, saslPassword);
            return brokers.containsAll(expected);
        } catch (IOException | RuntimeException notYet) {
            return false; // not listening yet, or the connection was reset by Docker's port proxy
        }
    }
}
