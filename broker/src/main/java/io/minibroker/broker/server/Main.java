package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code minibroker [server.properties] [--override key=value ...] [--await-overrides file] [--nodes N]}: starts
 * a broker (with {@code --nodes}, a cluster of N in this process, see {@link LocalCluster}) and runs until SIGTERM
 * or Ctrl-C, then stops cleanly and exits with 0.
 *
 * <p>{@code --await-overrides} exists for containers: a container cannot know the host port Docker maps its
 * listener to until it has started, yet it must advertise that port. The broker therefore waits for a
 * properties file that the container's starter copies in once the mapping is known, and applies it last.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    private static final long AWAIT_POLL_MS = 5;

    private Main() {
    }

    private static final String USAGE = """
            usage: minibroker [config] [--override key=value ...] [--nodes N] [--await-overrides file]
                   minibroker --help | --version

            Runs a Kafka-protocol broker until SIGTERM or Ctrl-C, then stops cleanly and exits with 0.

              config                    a properties file with Kafka's broker keys (default config/server.properties)
              --override key=value      a key that wins over the file's and the environment's; repeat for more
              --nodes N                 N nodes in this process, node 0 also the controller (a local cluster)
              --await-overrides file    wait for this properties file and apply it last (containers use it to
                                        learn their mapped ports)
              --help                    this text
              --version                 the version, then exit

            Environment variables named as the apache/kafka image names them set keys too, winning over the file:
            KAFKA_ and the key upper-cased, '.' as '_', '_' as '__', '-' as '___' (KAFKA_NUM_PARTITIONS=3).
            KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS and KAFKA_OPTS are the JVM's options, not keys
            (bin/minibroker and the image pass them).
            """;

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.print(USAGE);
            return;
        }
        if (args.length == 1 && args[0].equals("--version")) {
            System.out.println("minibroker " + version());
            return;
        }
        Path configFile = Path.of("config/server.properties");
        // The file, then the environment, then the command line: the more explicit wins.
        Map<String, String> overrides = new LinkedHashMap<>(EnvironmentConfig.from(System.getenv()));
        Path awaitedOverrides = null;
        int nodes = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--override") && i + 1 < args.length) {
                String pair = args[++i];
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    fail("--override needs key=value, got '" + pair + "'");
                }
                overrides.put(pair.substring(0, eq), pair.substring(eq + 1));
            } else if (args[i].equals("--await-overrides") && i + 1 < args.length) {
                awaitedOverrides = Path.of(args[++i]);
            } else if (args[i].equals("--nodes") && i + 1 < args.length) {
                try {
                    nodes = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    fail("--nodes needs a number, got '" + args[i] + "'");
                }
                if (nodes < 1) {
                    fail("--nodes needs at least 1, got " + nodes);
                }
            } else if (!args[i].startsWith("--")) {
                configFile = Path.of(args[i]);
            } else {
                fail("unknown option " + args[i] + "; see minibroker --help");
            }
        }
        if (awaitedOverrides != null) {
            overrides.putAll(awaitOverrides(awaitedOverrides));
        }
        AutoCloseable running;
        try {
            if (nodes > 0) {
                Map<String, String> common = BrokerConfig.readProperties(configFile);
                common.putAll(overrides);
                running = LocalCluster.start(nodes, common);
            } else {
                running = Broker.start(BrokerConfig.load(configFile, overrides));
            }
        } catch (ConfigException e) {
            fail(e.getMessage());
            return;
        }
        AutoCloseable toStop = running;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(toStop), "minibroker-shutdown"));
        Thread.currentThread().join(); // forever: the hook ends the process once the broker has stopped
    }

    /**
     * Stops the broker on SIGTERM or Ctrl-C and ends the process with 0 if it stopped cleanly. The JVM would
     * otherwise exit with 128 + the signal's number (143 for SIGTERM) after its hooks, which service managers
     * and scripts read as a failure.
     */
    private static void stop(AutoCloseable broker) {
        LOG.info("Stopping on a shutdown signal");
        int status = 1;
        try {
            broker.close();
            status = 0;
        } catch (Exception | Error e) {
            LOG.error("The broker did not stop cleanly", e);
        } finally {
            LOG.info("Exiting with status {}", status);
            Runtime.getRuntime().halt(status);
        }
    }

    /**
     * Waits for the file to appear, then until two reads a poll apart agree: the copy into a container is not
     * atomic, and a half-written file would silently drop keys.
     */
    private static Map<String, String> awaitOverrides(Path file) throws IOException, InterruptedException {
        System.err.println("minibroker: waiting for configuration overrides in " + file);
        byte[] previous = null;
        while (true) {
            if (Files.isReadable(file)) {
                byte[] current = Files.readAllBytes(file);
                if (Arrays.equals(previous, current)) {
                    return BrokerConfig.readProperties(file);
                }
                previous = current;
            }
            Thread.sleep(AWAIT_POLL_MS);
        }
    }

    /** The version the jar's manifest records; a build run from classes has none. */
    private static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version != null ? version : "(development build, no jar manifest)";
    }

    private static void fail(String message) {
        System.err.println("minibroker: " + message);
        System.exit(1);
    }
}
