package io.minibroker.broker.metadata;

import java.util.List;

/**
 * The brokers a node tells clients of (in DescribeCluster), and the ControllerId it tells them: as Kafka's KRaft
 * brokers, a live broker at random in a cluster, not the controller, which clients cannot reach.
 */
public interface BrokerDirectory {

    /** A broker at its address on one listener, its rack (null: none), and whether it is fenced. */
    record ListedBroker(int id, String host, int port, String rack, boolean fenced) {
    }

    int controllerId();

    /** The brokers at their addresses on the listener a request came on; the fenced ones too if asked, by id. */
    List<ListedBroker> brokers(String listenerName, boolean includeFenced);
}
