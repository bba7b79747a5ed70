package io.minibroker.broker.embedded;

import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.ClusterNodes;
import io.minibroker.broker.control.Controls;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.LocalCluster;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.time.ManualClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A cluster of N brokers in this JVM for tests: node 0 also plays the controller, as in Kafka's combined mode.
 * Each node has its own free client port and log directory under one temporary directory, deleted on close. A
 * test can stop a node (a controlled shutdown), kill it (no word to the controller, as a crash) and restart it on
 * its data, from the test or through any node's controls ({@link BrokerControls#killNode}), in Java or over HTTP.
 */
public final class MiniCluster implements ClusterNodes, AutoCloseable {

    public static final int CONTROLLER_ID = LocalCluster.CONTROLLER_ID;

    private final Path root;
    private final Map<String, String> overrides;
    /** Each node's own overrides, over {@link #overrides} (a node's {@code broker.rack}, say), by node id. */
    private final IntFunction<Map<String, String>> nodeOverrides;
    private final int controllerPort;
    private final List<EmbeddedBroker> nodes = new ArrayList<>();
    /** Set by {@link #close}: a restart asked through a node's controls meanwhile must not start a node again. */
    private boolean closed;

    /** Every node's clock: one, so that the nodes agree on the time as a cluster's machines do. */
    private final BrokerClock clock;

    private MiniCluster(Path root, Map<String, String> overrides, IntFunction<Map<String, String>> nodeOverrides,
                        int controllerPort, BrokerClock clock) {
        this.root = root;
        this.overrides = overrides;
        this.nodeOverrides = nodeOverrides;
        this.controllerPort = controllerPort;
        this.clock = clock;
    }

    /** Starts {@code size} nodes with these configuration overrides on each (Kafka's key names). */
    public static MiniCluster start(int size, Map<String, String> overrides) throws IOException, InterruptedException {
        return start(size, overrides, id -> Map.of(), BrokerClock.system());
    }

    /**
     * Starts {@code size} nodes with these configuration overrides on each, and each node's own
     * ({@code nodeOverrides} of its id, over the others; at every restart too): racks, for one.
     */
    public static MiniCluster start(int size, Map<String, String> overrides,
                                    IntFunction<Map<String, String>> nodeOverrides)
            throws IOException, InterruptedException {
        return start(size, overrides, nodeOverrides, BrokerClock.system());
    }

    /**
     * Starts {@code size} nodes on a clock the test moves (see {@link EmbeddedBroker#start(Map, ManualClock)}).
     * Heartbeats are sent in real time but judged on this clock: an advance past {@code broker.session.timeout.ms}
     * fences every broker that has not heartbeated since, as a controller paused that long would.
     */
    public static MiniCluster start(int size, Map<String, String> overrides, ManualClock clock)
            throws IOException, InterruptedException {
        return start(size, overrides, id -> Map.of(), BrokerClock.manual(clock));
    }

    private static MiniCluster start(int size, Map<String, String> overrides,
                                     IntFunction<Map<String, String>> nodeOverrides, BrokerClock clock)
            throws IOException, InterruptedException {
        // The controller's port goes into every node's controller.quorum.voters before node 0 binds it: picked, and
        // picked again if taken meanwhile (node 0's start, the first, then fails and the cluster is closed).
        return PickedPort.start(controllerPort -> {
            MiniCluster cluster = new MiniCluster(Files.createTempDirectory("minicluster-"), Map.copyOf(overrides),
                    nodeOverrides, controllerPort, clock);
            try {
                for (int id = 0; id < size; id++) {
                    cluster.nodes.add(null);
                    cluster.restart(id);
                }
                return cluster;
            } catch (IOException | InterruptedException | RuntimeException e) {
                cluster.close();
                throw e;
            }
        });
    }

    /** Starts a node that is not running, on the data it had. */
    @Override
    public synchronized void restart(int id) throws IOException, InterruptedException {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
        if (nodes.get(id) != null) {
            throw new IllegalStateException("node " + id + " is running");
        }
        Path dir = logDir(id);
        Files.createDirectories(dir);
        Map<String, String> properties = new HashMap<>(LocalCluster.layout(id, "PLAINTEXT://localhost:0",
                controllerPort));
        properties.putAll(overrides);
        properties.putAll(nodeOverrides.apply(id));
        EmbeddedBroker started = EmbeddedBroker.start(dir, properties, clock);
        started.controls().serveNodes(id, this);
        nodes.set(id, started);
    }

    /** Stops a node cleanly: it tells the controller, which fences it at once. */
    @Override
    public synchronized void stop(int id) {
        running(id).close();
        nodes.set(id, null);
    }

    /** Stops a node without a word to the controller, which fences it when its session times out. */
    @Override
    public synchronized void kill(int id) {
        running(id).broker().halt();
        nodes.set(id, null);
    }

    /** How many nodes the cluster has, running or not. */
    public synchronized int size() {
        return nodes.size();
    }

    public synchronized boolean isRunning(int id) {
        return nodes.get(id) != null;
    }

    public Broker node(int id) {
        return running(id).broker();
    }

    /** The log directory of a node, running or not, which outlives its restarts: where its partitions' are. */
    public Path logDir(int id) {
        return root.resolve("node-" + id);
    }

    /** A running node's test controls (each node has its own: errors and latency are per broker). */
    public BrokerControls controls(int id) {
        return node(id).controls();
    }

    /** Moves a partition's leadership to {@code node}: see {@link BrokerControls#moveLeader}. */
    public void moveLeader(String topic, int partition, int node) {
        controls(CONTROLLER_ID).moveLeader(topic, partition, node);
    }

    /** Makes {@code node} the coordinator of {@code group}: see {@link BrokerControls#moveGroupCoordinator}. */
    public void moveGroupCoordinator(String group, int node) {
        controls(CONTROLLER_ID).moveGroupCoordinator(group, node);
    }

    /** Makes {@code node} the coordinator of a transactional id: see {@link BrokerControls#moveTransactionCoordinator}. */
    public void moveTransactionCoordinator(String transactionalId, int node) {
        controls(CONTROLLER_ID).moveTransactionCoordinator(transactionalId, node);
    }

    /** Takes {@code node} out of a partition's ISR and holds it out, asking its leader: see {@link Controls#shrinkIsr}. */
    public List<Integer> shrinkIsr(String topic, int partition, int node) {
        return controls(leaderOf(topic, partition)).shrinkIsr(topic, partition, node);
    }

    /** Lets {@code node} back into a partition's ISR, asking its leader: see {@link Controls#growIsr}. */
    public List<Integer> growIsr(String topic, int partition, int node) {
        return controls(leaderOf(topic, partition)).growIsr(topic, partition, node);
    }

    /** The partition's leader as the controller has it now (-1: none). */
    public int leaderOf(String topic, int partition) {
        return controller().topicAssignments().image().topic(topic)
                .orElseThrow(() -> new IllegalArgumentException("no topic " + topic))
                .partitions().get(partition).leader();
    }

    public Broker controller() {
        return node(CONTROLLER_ID);
    }

    /** {@code bootstrap.servers} naming every running node. */
    public synchronized String bootstrapServers() {
        return nodes.stream().filter(node -> node != null).map(EmbeddedBroker::bootstrapServers)
                .collect(Collectors.joining(","));
    }

    private synchronized EmbeddedBroker running(int id) {
        EmbeddedBroker node = nodes.get(id);
        if (node == null) {
            throw new IllegalStateException("node " + id + " is not running");
        }
        return node;
    }

    /** Stops the brokers, the controller's node last so that the others' shutdowns reach it, then deletes the data. */
    @Override
    public synchronized void close() {
        closed = true;
        for (int id = nodes.size() - 1; id >= 0; id--) {
            if (nodes.get(id) != null) {
                stop(id);
            }
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
