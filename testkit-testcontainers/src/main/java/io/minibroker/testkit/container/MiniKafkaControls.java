package io.minibroker.testkit.container;

import io.minibroker.broker.control.Controls;
import io.minibroker.broker.control.HttpControls;

/**
 * The test controls of the brokers in a {@link MiniKafkaContainer}: the same Java API an in-process test has from
 * {@code EmbeddedBroker.controls()}, over each broker's controls endpoint (docs/test-controls.md), its port mapped.
 * <pre>
 *   MiniKafkaContainer kafka = MiniKafkaControls.enable(new MiniKafkaContainer(image));
 *   kafka.start();
 *   MiniKafkaControls.of(kafka).failNext(ApiKey.PRODUCE, Errors.NOT_LEADER_OR_FOLLOWER, 2);
 * </pre>
 * A class of its own rather than methods of the container, so that it can follow the container wherever the
 * testkit puts it.
 */
public final class MiniKafkaControls {

    /** Node 0's controls port in the container; node i's is this plus {@link MiniKafkaContainer#NODE_PORT_STEP} i. */
    public static final int CONTROLS_PORT = 9990;

    private MiniKafkaControls() {
    }

    /**
     * Turns on the controls endpoint of each of the container's nodes (its {@code withBrokers} count, 1 by
     * default), bound to every interface of the container and exposed so that its port is mapped. Call it after
     * {@code withBrokers} (which sets the exposed ports afresh) and before {@code start}.
     */
    public static MiniKafkaContainer enable(MiniKafkaContainer container) {
        int brokers = container.brokers();
        container.withBrokerConfig("minibroker.controls.host", "");
        if (brokers == 1) {
            container.withBrokerConfig("minibroker.controls.port", Integer.toString(CONTROLS_PORT));
        }
        for (int node = 0; node < brokers; node++) {
            if (brokers > 1) {
                container.withBrokerConfig("node." + node + ".minibroker.controls.port", Integer.toString(port(node)));
            }
            container.addExposedPort(port(node));
        }
        return container;
    }

    /** The controls of the container's broker (node 0 of a cluster, its controller's node). */
    public static Controls of(MiniKafkaContainer container) {
        return of(container, 0);
    }

    /** The controls of node {@code node} of the container's cluster. */
    public static Controls of(MiniKafkaContainer container, int node) {
        return HttpControls.at(container.getHost(), container.getMappedPort(port(node)));
    }

    private static int port(int node) {
        return CONTROLS_PORT + MiniKafkaContainer.NODE_PORT_STEP * node;
    }
}
