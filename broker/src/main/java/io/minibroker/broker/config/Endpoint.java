package io.minibroker.broker.config;

import java.util.ArrayList;
import java.util.List;

/**
 * One listener, as Kafka spells it: {@code NAME://host:port}. An empty host means all interfaces when
 * listening; port 0 means any free port.
 */
public record Endpoint(String listenerName, String host, int port) {

    /** Parses a comma-separated listener list such as {@code PLAINTEXT://0.0.0.0:9092,INTERNAL://:9093}. */
    public static List<Endpoint> parseList(String text) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String part : text.split(",")) {
            String spec = part.trim();
            if (!spec.isEmpty()) {
                endpoints.add(parse(spec));
            }
        }
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no listener in '" + text + "'");
        }
        return List.copyOf(endpoints);
    }

    static Endpoint parse(String spec) {
        int scheme = spec.indexOf("://");
        int colon = spec.lastIndexOf(':');
        if (scheme <= 0 || colon <= scheme + 2) {
            throw new IllegalArgumentException("expected NAME://host:port, got '" + spec + "'");
        }
        String host = spec.substring(scheme + 3, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // IPv6 literal
        }
        int port = Integer.parseInt(spec.substring(colon + 1));
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range in '" + spec + "'");
        }
        return new Endpoint(spec.substring(0, scheme).toUpperCase(java.util.Locale.ROOT), host, port);
    }

    @Override
    public String toString() {
        return listenerName + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
