package io.minibroker.broker.control;

import java.io.IOException;

/**
 * The nodes of a cluster run in one process ({@code MiniCluster}, {@code minibroker --nodes}), which the controls
 * can take down and bring back: whoever runs the nodes hands this to each node's controls.
 */
public interface ClusterNodes {

    /** Stops a node without a word to the controller, as a crash: it is fenced when its session times out. */
    void kill(int node);

    /** Stops a node cleanly: it tells the controller, which fences it at once. */
    void stop(int node);

    /** Starts a stopped or killed node again, on the data it had. */
    void restart(int node) throws IOException, InterruptedException;
}
