package io.minibroker.broker.metrics;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Serves the registry in Prometheus' text format at {@code /metrics} on {@code metrics.port}. Scrapes are rare
 * and small, so the JDK's HTTP server on one thread of its own is enough and keeps the event loops free.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PrometheusEndpoint.class);

    private final HttpServer server;

    public PrometheusEndpoint(PrometheusMeterRegistry registry, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        LOG.info("Prometheus metrics at http://{}:{}/metrics", "0.0.0.0", port());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
