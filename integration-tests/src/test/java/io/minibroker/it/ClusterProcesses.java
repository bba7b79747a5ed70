package io.minibroker.it;

import io.minibroker.broker.embedded.PickedPort;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The three-node cluster of docs/cluster.md as three broker processes, each started from its own real file,
 * {@code config/cluster/node-<i>.properties}. Only what cannot be shared with other runs on the machine is
 * overridden: the ports (the controller's picked free beforehand, since every node must be told it at start, and
 * picked again if taken before node 0 binds it; the client ones bound free and kept across a restart), the
 * controller's address in {@code controller.quorum.voters}, and {@code log.dirs}; plus whatever the test adds
 * (shorter timeouts). Node 0 is also the controller.
 */
final class ClusterProcesses implements AutoCloseable {

    static final int CONTROLLER_ID = 0;
    static final int SIZE = 3;

    private final Path root;
    private final Map<String, String> overrides;
    private final int controllerPort;
    private final List<BrokerProcess> nodes = new ArrayList<>();
    /** Every process started, killed and stopped ones too, with its node's id: their output tells what happened. */
    private final List<Map.Entry<Integer, BrokerProcess>> started = new ArrayList<>();
    /** Each node's client port once bound, so that a restarted node is where clients and the controller knew it. */
    private final int[] clientPorts = new int[SIZE];

    private ClusterProcesses(Path root, Map<String, String> overrides, int controllerPort) {
        this.root = root;
        this.overrides = overrides;
        this.controllerPort = controllerPort;
    }

    /** Starts the three nodes, the controller's first, with their data under {@code root}. */
    static ClusterProcesses start(Path root, Map<String, String> overrides) throws IOException, InterruptedException {
        return start(root, overrides, PickedPort::free);
    }

    /**
     * {@link #start(Path, Map)} with the controller's port from {@code picker}: it is picked before any node starts,
     * and picked again if node 0, the only one that binds it, finds it taken (that node's process exits before it
     * started, and no other was started).
     */
    static ClusterProcesses start(Path root, Map<String, String> overrides, PickedPort.Picker picker)
            throws IOException, InterruptedException {
        return PickedPort.start(picker, controllerPort -> {
            ClusterProcesses cluster = new ClusterProcesses(root, Map.copyOf(overrides), controllerPort);
            try {
                for (int id = 0; id < SIZE; id++) {
                    cluster.nodes.add(null);
                    cluster.restart(id);
                }
            } catch (IOException | RuntimeException e) {
                cluster.close();
                throw e;
            }
            return cluster;
        });
    }

    /** Starts a node that is not running, on the log directory it had. */
    void restart(int id) throws IOException {
        if (nodes.get(id) != null) {
            throw new IllegalStateException("node " + id + " is running");
        }
        String client = "PLAINTEXT://localhost:" + clientPorts[id];
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listeners", id == CONTROLLER_ID ? client + ",CONTROLLER://localhost:" + controllerPort : client);
        settings.put("advertised.listeners", client);
        settings.put("controller.quorum.voters", CONTROLLER_ID + "@localhost:" + controllerPort);
        settings.put("log.dirs", root.resolve("node-" + id).toString());
        settings.putAll(overrides);
        BrokerProcess node = BrokerProcess.start(Path.of("..", "config", "cluster", "node-" + id + ".properties"),
                settings);
        clientPorts[id] = node.port("PLAINTEXT");
        nodes.set(id, node);
        started.add(Map.entry(id, node));
    }

    /** SIGKILL: the controller learns of it only when the node's session times out. */
    void kill(int id) throws InterruptedException {
        running(id).kill();
        nodes.set(id, null);
    }

    /** SIGTERM: a clean stop, which tells the controller. */
    void stop(int id) throws InterruptedException {
        running(id).stop();
        nodes.set(id, null);
    }

    /** {@code bootstrap.servers} naming every node, running or not, as a client configured for the cluster would. */
    String bootstrapServers() {
        return Arrays.stream(clientPorts).mapToObj(port -> "localhost:" + port)
                .collect(Collectors.joining(","));
    }

    /** The log directory of node {@code id}. */
    Path logDir(int id) {
        return root.resolve("node-" + id);
    }

    /** Writes the output of every process started to {@code dir/node-<id>-<n>.log}, n counting its starts. */
    void saveOutputs(Path dir) throws IOException {
        int[] starts = new int[SIZE];
        for (Map.Entry<Integer, BrokerProcess> process : started) {
            int id = process.getKey();
            process.getValue().saveOutput(dir.resolve("node-" + id + "-" + ++starts[id] + ".log"));
        }
    }

    private BrokerProcess running(int id) {
        BrokerProcess node = nodes.get(id);
        if (node == null) {
            throw new IllegalStateException("node " + id + " is not running");
        }
        return node;
    }

    /**
     * Stops the running nodes cleanly, the controller's last so that the others' shutdowns reach it; a node that
     * does not stop is killed, and the first such failure thrown once every node is down.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int id = nodes.size() - 1; id >= 0; id--) {
            BrokerProcess node = nodes.get(id);
            if (node == null) {
                continue;
            }
            nodes.set(id, null);
            try {
                node.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                node.process().destroyForcibly();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
