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
 * Serves the registry in Prometheus' text format at {@code /metrics} on {@code metrics.host:metrics.port}. Scrapes are rare
 * and small, so the JDK's HTTP server on one thread of its own is enough and keeps the event loops free.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PrometheusEndpoint.class);

    private final HttpServer server;

    /** @param host the address to bind; empty for every interface */
    public PrometheusEndpoint(PrometheusMeterRegistry registry, String host, int port) throws IOException {
        server = HttpServer.create(host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        LOG.info("Prometheus metrics at http://{}:{}/metrics", host.isEmpty() ? "0.0.0.0" : host, port());
    }

    public int port() {
        return address().getPort();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
