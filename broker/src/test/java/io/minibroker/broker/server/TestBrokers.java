package io.minibroker.broker.server;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Starts a broker for a test of this module on the test's own directory (see {@link EmbeddedBroker}). */
public final class TestBrokers {

    private TestBrokers() {
    }

    public static Broker start(Path logDir, Map<String, String> overrides) throws IOException, InterruptedException {
        return EmbeddedBroker.start(logDir, overrides).broker();
    }

    /** A broker whose time moves only with {@code clock.advance}. */
    public static Broker start(Path logDir, Map<String, String> overrides, ManualClock clock)
            throws IOException, InterruptedException {
        return EmbeddedBroker.start(logDir, overrides, clock).broker();
    }

    /** An AdminClient bootstrapped from the broker's PLAINTEXT listener; the caller closes it. */
    public static Admin admin(Broker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")));
    }
}
