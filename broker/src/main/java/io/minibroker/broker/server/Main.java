package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigException;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code minibroker [server.properties] [--override key=value ...]}: starts a broker and runs until SIGTERM or
 * Ctrl-C, then stops cleanly.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Path configFile = Path.of("config/server.properties");
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--override") && i + 1 < args.length) {
                String pair = args[++i];
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    fail("--override needs key=value, got '" + pair + "'");
                }
                overrides.put(pair.substring(0, eq), pair.substring(eq + 1));
            } else if (!args[i].startsWith("--")) {
                configFile = Path.of(args[i]);
            } else {
                fail("unknown option " + args[i] + "; usage: minibroker [config] [--override key=value ...]");
            }
        }
        BrokerConfig config;
        try {
            config = BrokerConfig.load(configFile, overrides);
        } catch (ConfigException e) {
            fail(e.getMessage());
            return;
        }
        Broker broker = Broker.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "minibroker-shutdown"));
        stopped.await();
    }

    private static void fail(String message) {
        System.err.println("minibroker: " + message);
        System.exit(1);
    }
}
