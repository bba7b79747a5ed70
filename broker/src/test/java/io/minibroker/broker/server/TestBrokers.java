package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Starts a broker for a test: a free port on localhost, logs in the test's own directory. */
public final class TestBrokers {

    private TestBrokers() {
    }

    public static Broker start(Path logDir, Map<String, String> overrides) throws IOException, InterruptedException {
        Map<String, String> properties = new HashMap<>();
        properties.put("listeners", "PLAINTEXT://localhost:0");
        properties.put("log.dirs", logDir.toString());
        properties.putAll(overrides);
        return Broker.start(BrokerConfig.of(properties));
    }
}
