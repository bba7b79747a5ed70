package io.minibroker.testkit.container;

import com.github.dockerjava.api.command.InspectContainerResponse;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;

/**
 * minibroker in a Docker container, for Testcontainers tests:
 * <pre>
 *   try (MiniKafkaContainer kafka = new MiniKafkaContainer("minibroker:latest")) {
 *       kafka.start();
 *       producerConfig.put("bootstrap.servers", kafka.getBootstrapServers());
 *   }
 * </pre>
 * The image is the repository's {@code Dockerfile}'s, named {@value #DEFAULT_IMAGE_NAME_VALUE} (any tag). As with
 * Testcontainers' own modules, an image of another name is refused unless declared a substitute:
 * {@code DockerImageName.parse("registry.example/mirror/minibroker:1").asCompatibleSubstituteFor("minibroker")}.
 * The broker's configuration comes from {@link #withBrokerConfig} or, as for the apache/kafka image, from
 * {@code KAFKA_*} environment variables ({@code withEnv("KAFKA_NUM_PARTITIONS", "3")}).
 * Two listeners, as Testcontainers' own {@code KafkaContainer} has: {@code PLAINTEXT} on {@value #KAFKA_PORT}
 * for the test's JVM, advertised as the host and the port Docker mapped it to, and {@code BROKER} on
 * {@value #NETWORK_PORT} for other containers on the same network, advertised as this container's network
 * alias. Advertising the container's own address would send host clients to an address they cannot reach, the
 * usual Kafka-in-Docker trap; and the mapped port is only known once the container runs, so the broker starts
 * by waiting for a file of configuration overrides that {@link #containerIsStarting} copies in.
 *
 * <p>{@link #withSaslPlain} makes every listener SASL_PLAINTEXT: clients authenticate with SASL/PLAIN, and so do
 * the readiness check and, in a cluster, the nodes themselves.
 *
 * <p>{@link #withBrokers withBrokers(n)} with n &gt; 1 runs a cluster of n nodes in the one container
 * ({@code minibroker --nodes n}): node i listens on {@value #KAFKA_PORT} + 10 i and {@value #NETWORK_PORT} + 10 i,
 * each advertised as above, and node 0 is also the controller. Replication must not go through the host's mapped
 * ports, which the nodes cannot reach from inside: with a network the nodes fetch from each other on the BROKER
 * listener (the alias resolves on the network), without one on an INTERNAL listener on the container's
 * localhost, at {@value #NETWORK_PORT} + 1 + 10 i ({@code inter.broker.listener.name}).
 */
public class MiniKafkaContainer extends GenericContainer<MiniKafkaContainer> {

    static final String DEFAULT_IMAGE_NAME_VALUE = "minibroker";
    /** The image's name, as the README builds it ({@code docker build -t minibroker .}); any tag. */
    public static final DockerImageName DEFAULT_IMAGE_NAME = DockerImageName.parse(DEFAULT_IMAGE_NAME_VALUE);

    /** The listener for clients on the Docker host (mapped to a random host port). */
    public static final int KAFKA_PORT = 9092;
    /** The listener for other containers on the same network, reached by network alias. */
    public static final int NETWORK_PORT = 9093;

    /** How far apart the ports of two nodes of an in-container cluster are (as {@code minibroker --nodes}). */
    public static final int NODE_PORT_STEP = 10;
    private static final int CONTROLLER_PORT = 9099;

    private static final String OVERRIDES_PATH = "/tmp/minibroker-overrides.properties";
    private static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    /** The user the nodes of an in-container cluster sign in to each other as, with a password of each container's. */
    private static final String NODE_USER = "minibroker-node";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> brokerConfig = new LinkedHashMap<>();
    private int brokers = 1;
    /** The SASL/PLAIN user clients authenticate as, or null: no authentication. */
    private String saslUser;
    private String saslPassword;
    private final String nodePassword = java.util.UUID.randomUUID().toString();

    public MiniKafkaContainer(String image) {
        this(DockerImageName.parse(image));
    }

    /**
     * @throws IllegalStateException if the image is neither named {@link #DEFAULT_IMAGE_NAME} nor declared a
     *         substitute for it with {@link DockerImageName#asCompatibleSubstituteFor}
     */
    public MiniKafkaContainer(DockerImageName image) {
        super(compatible(image));
        configureListenersAndReadiness();
    }

    private static DockerImageName compatible(DockerImageName image) {
        image.assertCompatibleWith(DEFAULT_IMAGE_NAME);
        return image;
    }

    /** For an image built on the fly, e.g. Testcontainers' {@code ImageFromDockerfile} (its name is not checked). */
    public MiniKafkaContainer(Future<String> image) {
        super(image);
        configureListenersAndReadiness();
    }

    private void configureListenersAndReadiness() {
        configureNodes();
        // Tests want a group formed the moment its members join, as Testcontainers' KafkaContainer sets it.
        brokerConfig.put("group.initial.rebalance.delay.ms", "0");
    }

    /**
     * A cluster of {@code n} nodes in this container (default 1, a single broker); every node gets the
     * {@link #withBrokerConfig} overrides, and a key written {@code node.<i>.<key>} goes to node i only.
     */
    public MiniKafkaContainer withBrokers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("withBrokers needs at least 1, got " + n);
        }
        brokers = n;
        configureNodes();
        return self();
    }

    private void configureNodes() {
        Integer[] ports = new Integer[2 * brokers];
        List<Integer> clientPorts = new ArrayList<>();
        for (int node = 0; node < brokers; node++) {
            ports[2 * node] = clientPort(node);
            ports[2 * node + 1] = networkPort(node);
            clientPorts.add(clientPort(node));
        }
        setExposedPorts(List.of(ports));
        if (brokers == 1) {
            withCommand("--await-overrides", OVERRIDES_PATH);
        } else {
            withCommand("--await-overrides", OVERRIDES_PATH, "--nodes", Integer.toString(brokers));
        }
        waitingFor(new AdvertisedListenerWaitStrategy(clientPorts, saslUser, saslPassword)
                .withStartupTimeout(STARTUP_TIMEOUT));
    }

    /**
     * Clients authenticate with SASL/PLAIN as {@code user}, on both listeners: their security protocol is
     * SASL_PLAINTEXT ({@link #getClientSaslConfig()} gives a client's settings). The nodes of an in-container cluster
     * sign in to each other too, as a user of their own with a password made for this container.
     */
    public MiniKafkaContainer withSaslPlain(String user, String password) {
        // The name becomes part of a JAAS option name (user_<name>), and the broker refuses empty passwords.
        if (user == null || !user.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("a SASL user name of letters, digits, '.', '_' or '-', not " + user);
        }
        if (password == null || password.isEmpty() || password.contains("\n") || password.contains("\r")) {
            throw new IllegalArgumentException("a SASL password must be one line and not empty");
        }
        saslUser = user;
        saslPassword = password;
        configureNodes(); // the readiness check authenticates too
        return self();
    }

    /**
     * A client's {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config} for
     * {@link #withSaslPlain}; empty without it.
     */
    public Map<String, String> getClientSaslConfig() {
        if (saslUser == null) {
            return Map.of();
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", PLAIN_LOGIN_MODULE + " required username=" + jaasQuoted(saslUser)
                        + " password=" + jaasQuoted(saslPassword) + ";");
    }

    private static String jaasQuoted(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static int clientPort(int node) {
        return KAFKA_PORT + NODE_PORT_STEP * node;
    }

    private static int networkPort(int node) {
        return NETWORK_PORT + NODE_PORT_STEP * node;
    }

    /** A broker configuration override, Kafka's key names: {@code withBrokerConfig("num.partitions", "3")}. */
    /** How many nodes the container runs: 1, or what {@link #withBrokers} set. */
    int brokers() {
        return brokers;
    }

    public MiniKafkaContainer withBrokerConfig(String key, String value) {
        brokerConfig.put(key, value);
        return self();
    }

    /** {@code bootstrap.servers} for clients in the test's JVM (or anywhere on the Docker host): every node. */
    public String getBootstrapServers() {
        List<String> servers = new ArrayList<>();
        for (int node = 0; node < brokers; node++) {
            servers.add(hostAddress(node));
        }
        return String.join(",", servers);
    }

    private String hostAddress(int node) {
        return getHost() + ":" + getMappedPort(clientPort(node));
    }

    /**
     * {@code bootstrap.servers} for clients in other containers on this container's network: the network alias
     * given last (Testcontainers puts a random one first, before those of {@code withNetworkAliases}).
     */
    public String getNetworkBootstrapServers() {
        List<String> servers = new ArrayList<>();
        for (int node = 0; node < brokers; node++) {
            servers.add(networkAddress(node));
        }
        return String.join(",", servers);
    }

    private String networkAddress(int node) {
        List<String> aliases = getNetworkAliases();
        return aliases.get(aliases.size() - 1) + ":" + networkPort(node);
    }

    @Override
    protected void containerIsStarting(InspectContainerResponse containerInfo) {
        copyFileToContainer(Transferable.of(overrides().getBytes(StandardCharsets.UTF_8)), OVERRIDES_PATH);
    }

    private String overrides() {
        Map<String, String> overrides = new LinkedHashMap<>();
        List<String> listenerNames = new ArrayList<>(List.of("PLAINTEXT", "BROKER"));
        if (brokers == 1) {
            overrides.put("listeners", "PLAINTEXT://0.0.0.0:" + KAFKA_PORT + ",BROKER://0.0.0.0:" + NETWORK_PORT);
            overrides.put("advertised.listeners",
                    "PLAINTEXT://" + getBootstrapServers() + ",BROKER://" + getNetworkBootstrapServers());
        } else {
            // The alias resolves only on a user network; without one the nodes reach each other on localhost.
            boolean onNetwork = getNetwork() != null;
            overrides.put("inter.broker.listener.name", onNetwork ? "BROKER" : "INTERNAL");
            if (!onNetwork) {
                listenerNames.add("INTERNAL");
            }
            listenerNames.add("CONTROLLER");
            for (int node = 0; node < brokers; node++) {
                String listeners = "PLAINTEXT://0.0.0.0:" + clientPort(node) + ",BROKER://0.0.0.0:" + networkPort(node);
                String advertised = "PLAINTEXT://" + hostAddress(node) + ",BROKER://" + networkAddress(node);
                if (!onNetwork) {
                    String internal = ",INTERNAL://localhost:" + (networkPort(node) + 1);
                    listeners += internal;
                    advertised += internal;
                }
                if (node == 0) {
                    listeners += ",CONTROLLER://localhost:" + CONTROLLER_PORT;
                }
                overrides.put("node." + node + ".listeners", listeners);
                overrides.put("node." + node + ".advertised.listeners", advertised);
            }
        }
        if (saslUser != null) {
            // Every listener signs in: the client's, and in a cluster the nodes' own, as a user of their own.
            overrides.put("listener.security.protocol.map", String.join(",",
                    listenerNames.stream().map(name -> name + ":SASL_PLAINTEXT").toList()));
            overrides.put("sasl.enabled.mechanisms", "PLAIN");
            overrides.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
            overrides.put("sasl.mechanism.controller.protocol", "PLAIN");
            String jaas = PLAIN_LOGIN_MODULE + " required username=\"" + NODE_USER + "\" password=\"" + nodePassword
                    + "\" user_" + NODE_USER + "=\"" + nodePassword + "\" user_" + saslUser + "="
                    + jaasQuoted(saslPassword) + ";";
            for (String listener : listenerNames) {
                overrides.put("listener.name." + listener.toLowerCase(java.util.Locale.ROOT) + ".plain.sasl.jaas.config",
                        jaas);
            }
        }
        overrides.putAll(brokerConfig);
        Properties properties = new Properties();
        properties.putAll(overrides);
        StringWriter text = new StringWriter();
        try {
            properties.store(text, "written by MiniKafkaContainer once the port mapping is known");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not throw
        }
        return text.toString();
    }
}
