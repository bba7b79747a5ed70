package io.minibroker.broker.embedded;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.time.ManualClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A broker in this JVM for tests, in a few lines:
 * <pre>
 *   try (EmbeddedBroker kafka = EmbeddedBroker.start()) {
 *       producerConfig.put("bootstrap.servers", kafka.bootstrapServers());
 *       ...
 *   }
 * </pre>
 * It listens on a free port of localhost and keeps its logs in a new temporary directory, deleted on close
 * unless the directory was given (so that a test can restart a broker on the same data).
 */
public final class EmbeddedBroker implements AutoCloseable {

    private final Broker broker;
    private final Path logDir;
    private final boolean ownsLogDir;
    /** The first listener of {@code listeners} that is not a controller's, the one {@link #bootstrapServers()} names. */
    private final String clientListener;

    private EmbeddedBroker(Broker broker, Path logDir, boolean ownsLogDir, String clientListener) {
        this.broker = broker;
        this.logDir = logDir;
        this.ownsLogDir = ownsLogDir;
        this.clientListener = clientListener;
    }

    public static EmbeddedBroker start() throws IOException, InterruptedException {
        return start(Map.of());
    }

    /** Starts with these configuration overrides (Kafka's key names). */
    public static EmbeddedBroker start(Map<String, String> overrides) throws IOException, InterruptedException {
        return start(Files.createTempDirectory("minibroker-"), true, overrides, BrokerClock.system());
    }

    /**
     * Starts with these overrides on a clock the test moves: sessions, purgatory timeouts, retention, offsets'
     * expiry, segment ages and the broker's periodic rounds follow {@code clock.advance(ms)}, not the wall.
     */
    public static EmbeddedBroker start(Map<String, String> overrides, ManualClock clock)
            throws IOException, InterruptedException {
        return start(Files.createTempDirectory("minibroker-"), true, overrides, BrokerClock.manual(clock));
    }

    /** Starts on an existing log directory, which is kept on close. */
    public static EmbeddedBroker start(Path logDir, Map<String, String> overrides)
            throws IOException, InterruptedException {
        return start(logDir, false, overrides, BrokerClock.system());
    }

    /** Starts on an existing log directory, which is kept on close, on a clock the test moves. */
    public static EmbeddedBroker start(Path logDir, Map<String, String> overrides, ManualClock clock)
            throws IOException, InterruptedException {
        return start(logDir, false, overrides, BrokerClock.manual(clock));
    }

    /** Starts on an existing log directory, which is kept on close, on the given clock (shared by a MiniCluster). */
    static EmbeddedBroker start(Path logDir, Map<String, String> overrides, BrokerClock clock)
            throws IOException, InterruptedException {
        return start(logDir, false, overrides, clock);
    }


    private static EmbeddedBroker start(Path logDir, boolean ownsLogDir, Map<String, String> overrides,
                                        BrokerClock clock) throws IOException, InterruptedException {
        Map<String, String> properties = new HashMap<>();
        properties.put("listeners", "PLAINTEXT://localhost:0");
        properties.put("log.dirs", logDir.toString());
        properties.put("offsets.topic.replication.factor", "1");
        properties.put("group.initial.rebalance.delay.ms", "0"); // tests want their groups formed at once
        properties.putAll(overrides);
        BrokerConfig config = BrokerConfig.of(properties);
        String clientListener = config.get(BrokerConfig.LISTENERS).stream().map(Endpoint::listenerName)
                .filter(name -> !config.get(BrokerConfig.CONTROLLER_LISTENER_NAMES).contains(name))
                .findFirst().orElseThrow();
        return new EmbeddedBroker(Broker.start(config, clock), logDir, ownsLogDir, clientListener);
    }

    /**
     * The {@code bootstrap.servers} value for clients: the first listener of {@code listeners} that is not a
     * controller's (PLAINTEXT unless overridden; a SASL_PLAINTEXT one asks clients to authenticate).
     */
    public String bootstrapServers() {
        return "localhost:" + broker.boundPort(clientListener);
    }

    public Broker broker() {
        return broker;
    }

    /**
     * This broker's test controls: make it misbehave on purpose (errors, latency, a hang, closed or refused
     * connections, capped versions), log its requests, move its manual clock. See docs/test-controls.md.
     */
    public BrokerControls controls() {
        return broker.controls();
    }

    public Path logDir() {
        return logDir;
    }

    @Override
    public void close() {
        broker.close();
        if (ownsLogDir) {
            try (Stream<Path> files = Files.walk(logDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
