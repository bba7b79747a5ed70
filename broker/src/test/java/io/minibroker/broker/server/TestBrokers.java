package io.minibroker.broker.server;

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
}
