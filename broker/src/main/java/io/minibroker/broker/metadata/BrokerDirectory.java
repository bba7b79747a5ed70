package io.minibroker.broker.metadata;

import java.util.List;

/**
 * The brokers a node tells clients of (in DescribeCluster), and the ControllerId it tells them: as Kafka's KRaft
 * brokers, a live broker at random in a cluster, not the controller, which clients cannot reach.
 */
public interface BrokerDirectory {

    /** A broker at its address on one listener. */
    record ListedBroker(int id, String host, int port) {
    }

    int controllerId();

    /** The brokers at their addresses on the listener a request came on. */
    List<ListedBroker> brokers(String listenerName);
}
