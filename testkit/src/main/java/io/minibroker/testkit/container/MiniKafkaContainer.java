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
 * Two listeners, as Testcontainers' own {@code KafkaContainer} has: {@code PLAINTEXT} on {@value #KAFKA_PORT}
 * for the test's JVM, advertised as the host and the port Docker mapped it to, and {@code BROKER} on
 * {@value #NETWORK_PORT} for other containers on the same network, advertised as this container's network
 * alias. Advertising the container's own address would send host clients to an address they cannot reach, the
 * usual Kafka-in-Docker trap; and the mapped port is only known once the container runs, so the broker starts
 * by waiting for a file of configuration overrides that {@link #containerIsStarting} copies in.
 */
public class MiniKafkaContainer extends GenericContainer<MiniKafkaContainer> {

    /** The listener for clients on the Docker host (mapped to a random host port). */
    public static final int KAFKA_PORT = 9092;
    /** The listener for other containers on the same network, reached by network alias. */
    public static final int NETWORK_PORT = 9093;

    private static final String OVERRIDES_PATH = "/tmp/minibroker-overrides.properties";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, String> brokerConfig = new LinkedHashMap<>();

    public MiniKafkaContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public MiniKafkaContainer(DockerImageName image) {
        super(image);
        configureListenersAndReadiness();
    }

    /** For an image built on the fly, e.g. Testcontainers' {@code ImageFromDockerfile}. */
    public MiniKafkaContainer(Future<String> image) {
        super(image);
        configureListenersAndReadiness();
    }

    private void configureListenersAndReadiness() {
        withExposedPorts(KAFKA_PORT, NETWORK_PORT);
        withCommand("--await-overrides", OVERRIDES_PATH);
        waitingFor(new AdvertisedListenerWaitStrategy(KAFKA_PORT).withStartupTimeout(STARTUP_TIMEOUT));
        // Tests want a group formed the moment its members join, as Testcontainers' KafkaContainer sets it.
        brokerConfig.put("group.initial.rebalance.delay.ms", "0");
    }

    /** A broker configuration override, Kafka's key names: {@code withBrokerConfig("num.partitions", "3")}. */
    public MiniKafkaContainer withBrokerConfig(String key, String value) {
        brokerConfig.put(key, value);
        return self();
    }

    /** {@code bootstrap.servers} for clients in the test's JVM (or anywhere on the Docker host). */
    public String getBootstrapServers() {
        return getHost() + ":" + getMappedPort(KAFKA_PORT);
    }

    /**
     * {@code bootstrap.servers} for clients in other containers on this container's network: the network alias
     * given last (Testcontainers puts a random one first, before those of {@code withNetworkAliases}).
     */
    public String getNetworkBootstrapServers() {
        List<String> aliases = getNetworkAliases();
        return aliases.get(aliases.size() - 1) + ":" + NETWORK_PORT;
    }

    @Override
    protected void containerIsStarting(InspectContainerResponse containerInfo) {
        copyFileToContainer(Transferable.of(overrides().getBytes(StandardCharsets.UTF_8)), OVERRIDES_PATH);
    }

    private String overrides() {
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("listeners", "PLAINTEXT://0.0.0.0:" + KAFKA_PORT + ",BROKER://0.0.0.0:" + NETWORK_PORT);
        overrides.put("advertised.listeners",
                "PLAINTEXT://" + getBootstrapServers() + ",BROKER://" + getNetworkBootstrapServers());
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
