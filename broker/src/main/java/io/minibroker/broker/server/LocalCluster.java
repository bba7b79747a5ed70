package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.control.ClusterNodes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code minibroker --nodes N}: N nodes in one process on fixed ports. Node i's client listener is PLAINTEXT on
 * {@code 9092 + 10 * i}; node 0 also plays the controller, on {@value #CONTROLLER_PORT}; node i keeps its logs in
 * {@code <log.dirs>/node-i}. Every node gets the common configuration except the keys that lay the cluster out
 * (a single node's file names one node.id and one set of listeners); a key written {@code node.<i>.<key>} goes to
 * node i only and overrides anything, layout keys included. The nodes' controls can take a node down and bring it
 * back ({@code POST /nodes/kill}, docs/test-controls.md), on the same ports and data.
 */
public final class LocalCluster implements ClusterNodes, AutoCloseable {

    public static final int CONTROLLER_ID = 0;
    public static final int CONTROLLER_PORT = 9099;
    public static final int FIRST_CLIENT_PORT = 9092;
    public static final int PORT_STEP = 10;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    /** Keys LocalCluster sets per node; the common configuration's values for them are not used. */
    private static final Set<String> LAYOUT_KEYS = Set.of("node.id", "process.roles", "listeners",
            "advertised.listeners", "controller.quorum.voters", "controller.listener.names", "log.dirs", "log.dir");

    /** Each node's broker, null while it is down. */
    private final List<Broker> nodes = new ArrayList<>();
    private final List<Map<String, String>> configs;
    private boolean closed;

    private LocalCluster(List<Map<String, String>> configs) {
        this.configs = configs;
    }

    /** Starts the nodes, the controller's first; stops those started if one fails. */
    public static LocalCluster start(int size, Map<String, String> common) throws IOException, InterruptedException {
        LocalCluster cluster = new LocalCluster(nodeConfigs(size, common));
        try {
            for (int id = 0; id < size; id++) {
                cluster.nodes.add(null);
                cluster.restart(id);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    @Override
    public synchronized void restart(int node) throws IOException, InterruptedException {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
        if (nodes.get(node) != null) {
            throw new IllegalStateException("node " + node + " is running");
        }
        Broker started = Broker.start(BrokerConfig.of(configs.get(node)));
        started.controls().serveNodes(node, this);
        nodes.set(node, started);
    }

    @Override
    public synchronized void kill(int node) {
        running(node).halt();
        nodes.set(node, null);
    }

    @Override
    public synchronized void stop(int node) {
        running(node).close();
        nodes.set(node, null);
    }

    private Broker running(int node) {
        if (node < 0 || node >= nodes.size() || nodes.get(node) == null) {
            throw new IllegalStateException("node " + node + " is not running");
        }
        return nodes.get(node);
    }

    /** Each node's configuration, node 0's first. */
    public static List<Map<String, String>> nodeConfigs(int size, Map<String, String> common) {
        if (size < 1) {
            throw new IllegalArgumentException("--nodes needs at least 1, got " + size);
        }
        Path logRoot = Path.of(common.getOrDefault("log.dirs", common.getOrDefault("log.dir",
                BrokerConfig.LOG_DIR.defaultValue())).split(",")[0].trim());
        List<Map<String, String>> configs = new ArrayList<>();
        for (int id = 0; id < size; id++) {
            Map<String, String> properties = new LinkedHashMap<>();
            common.forEach((key, value) -> {
                if (!LAYOUT_KEYS.contains(key) && !key.startsWith("node.")) {
                    properties.put(key, value);
                }
            });
            properties.putAll(layout(id, "PLAINTEXT://:" + (FIRST_CLIENT_PORT + PORT_STEP * id), CONTROLLER_PORT));
            properties.put("log.dirs", logRoot.resolve("node-" + id).toString());
            String prefix = "node." + id + ".";
            common.forEach((key, value) -> {
                if (key.startsWith(prefix) && key.length() > prefix.length()) {
                    properties.put(key.substring(prefix.length()), value);
                }
            });
            configs.add(properties);
        }
        return configs;
    }

    /**
     * The keys that place node {@code id} in a cluster whose node 0 is also the controller, listening on
     * {@code localhost:controllerPort}: its id, roles, the voter, and its listeners (the client one given).
     */
    public static Map<String, String> layout(int id, String clientListener, int controllerPort) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("node.id", Integer.toString(id));
        properties.put("controller.quorum.voters", CONTROLLER_ID + "@localhost:" + controllerPort);
        properties.put("controller.listener.names", CONTROLLER_LISTENER);
        boolean controller = id == CONTROLLER_ID;
        properties.put("process.roles", controller ? "broker,controller" : "broker");
        properties.put("listeners", controller
                ? clientListener + "," + CONTROLLER_LISTENER + "://localhost:" + controllerPort : clientListener);
        return properties;
    }

    /** The running nodes. */
    public synchronized List<Broker> nodes() {
        return nodes.stream().filter(node -> node != null).toList();
    }

    /** Stops the nodes, the controller's last so that the others' shutdowns reach it. */
    @Override
    public synchronized void close() {
        closed = true;
        RuntimeException failure = null;
        for (int id = nodes.size() - 1; id >= 0; id--) {
            if (nodes.get(id) == null) {
                continue;
            }
            try {
                nodes.get(id).close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
