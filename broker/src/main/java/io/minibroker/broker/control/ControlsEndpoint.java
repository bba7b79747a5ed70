package io.minibroker.broker.control;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.control.ControlsJson.api;
import static io.minibroker.broker.control.ControlsJson.error;
import static io.minibroker.broker.control.ControlsJson.errorRule;
import static io.minibroker.broker.control.ControlsJson.flag;
import static io.minibroker.broker.control.ControlsJson.match;
import static io.minibroker.broker.control.ControlsJson.number;
import static io.minibroker.broker.control.ControlsJson.required;
import static io.minibroker.broker.control.ControlsJson.text;

/**
 * The controls over HTTP, JSON in and out, so that a test in any language (or a container's user) has what an
 * in-process test has: on {@code minibroker.controls.host:minibroker.controls.port}, a port of its own that no
 * client listener shares, and only when that key is set. The operations and their JSON are in
 * docs/test-controls.md. The JDK's HTTP server serves it, as it does the metrics: no dependency, and its own
 * threads, a few so that a request awaiting the log does not hold up the others.
 */
public final class ControlsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlsEndpoint.class);
    /** Threads serving the endpoint: each await holds one until its match or timeout. */
    private static final int THREADS = 4;
    /** The longest an await may ask for, so that a forgotten one frees its thread. */
    private static final long MAX_AWAIT_MS = TimeUnit.MINUTES.toMillis(5);

    private final BrokerControls controls;
    private final HttpServer server;
    private final ExecutorService threads;

    /** @param host the address to bind; empty for every interface */
    public ControlsEndpoint(BrokerControls controls, String host, int port) throws IOException {
        this.controls = controls;
        server = HttpServer.create(host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port), 0);
        threads = Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, "controls-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(threads);
        server.createContext("/", this::serve);
        server.start();
        LOG.warn("Test controls at http://{}:{}/ (minibroker.controls.port): anyone reaching it can break this broker",
                host.isEmpty() ? "0.0.0.0" : host, address().getPort());
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void serve(HttpExchange exchange) throws IOException {
        int status = 200;
        Object answer;
        try {
            answer = route(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(), body(exchange));
            if (answer instanceof TimedOut) {
                status = 408;
                answer = Map.of("timedOut", true);
            } else if (answer == null) {
                status = 404;
                answer = Map.of("error", "no such control: " + exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getPath() + " (see docs/test-controls.md)");
            }
        } catch (IllegalArgumentException | IllegalStateException | ClassCastException e) {
            status = 400;
            answer = Map.of("error", String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = 503;
            answer = Map.of("error", "the broker is stopping");
        }
        byte[] bytes = Json.write(answer).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** An await that found nothing in time: 408. */
    private enum TimedOut { INSTANCE }

    /** The answer to one operation; null for an unknown one. */
    private Object route(String method, String path, String query, Map<String, Object> in)
            throws InterruptedException {
        String operation = method + " " + (path.endsWith("/") && path.length() > 1
                ? path.substring(0, path.length() - 1) : path);
        if (operation.startsWith("DELETE /errors/")) {
            long id = Long.parseLong(operation.substring("DELETE /errors/".length()));
            return Map.of("removed", controls.removeErrorRule(id));
        }
        switch (operation) {
            case "GET /" -> {
                return state();
            }
            case "POST /errors" -> {
                return Map.of("id", controls.inject(errorRule(in)));
            }
            case "GET /errors" -> {
                return controls.errorRules().stream().map(ControlsJson::json).toList();
            }
            case "DELETE /errors" -> controls.clearErrorRules();
            case "POST /delay" -> {
                long ms = number(in, "ms");
                String api = text(in, "api");
                if (api == null) {
                    controls.delayAll(ms);
                } else {
                    controls.delay(api(api), ms);
                }
            }
            case "DELETE /delay" -> controls.clearDelays();
            case "POST /hang" -> controls.hang();
            case "POST /resume" -> controls.resume();
            case "POST /connections/close" -> controls.closeConnections();
            case "POST /connections/refuse" -> controls.refuseConnections(flag(in, "refuse", true));
            case "POST /versions" -> controls.capVersion(api(required(in, "api")), (int) number(in, "maxVersion"));
            case "DELETE /versions" -> controls.clearVersionCaps();
            case "POST /requests/start" -> controls.requestLog().start();
            case "POST /requests/stop" -> controls.requestLog().stop();
            case "DELETE /requests" -> controls.requestLog().clear();
            case "GET /requests" -> {
                return controls.requestLog().find(match(query(query))).stream().map(ControlsJson::json).toList();
            }
            case "POST /requests/await" -> {
                return awaitRequest(in);
            }
            case "POST /leaders/move" -> controls.moveLeader(required(in, "topic"), (int) number(in, "partition"),
                    (int) number(in, "node"));
            case "POST /coordinators/move" -> moveCoordinator(in);
            case "POST /isr/shrink" -> {
                return Map.of("isr", controls.shrinkIsr(required(in, "topic"), (int) number(in, "partition"),
                        (int) number(in, "node")));
            }
            case "POST /isr/grow" -> {
                return Map.of("isr", controls.growIsr(required(in, "topic"), (int) number(in, "partition"),
                        (int) number(in, "node")));
            }
            case "POST /followers/lag" -> controls.lagFollower(text(in, "topic"), partitionOrAll(in));
            case "POST /followers/resume" -> controls.resumeFollower(text(in, "topic"), partitionOrAll(in));
            case "POST /followers/slow" -> controls.slowFollower(text(in, "topic"), partitionOrAll(in),
                    Duration.ofMillis(number(in, "delayMs")));
            case "POST /nodes/kill" -> controls.killNode(otherNode(in));
            case "POST /nodes/stop" -> controls.stopNode(otherNode(in));
            case "POST /nodes/restart" -> controls.restartNode((int) number(in, "node"));
            case "POST /clock/advance" -> controls.advanceClock(Duration.ofMillis(number(in, "ms")));
            case "POST /reset" -> controls.reset();
            default -> {
                return null;
            }
        }
        return state();
    }

    private void moveCoordinator(Map<String, Object> in) {
        String transactionalId = text(in, "transactionalId");
        if (transactionalId != null) {
            controls.moveTransactionCoordinator(transactionalId, (int) number(in, "node"));
        } else {
            controls.moveGroupCoordinator(required(in, "group"), (int) number(in, "node"));
        }
    }

    private static int partitionOrAll(Map<String, Object> in) {
        return in.get("partition") == null ? -1 : (int) number(in, "partition");
    }

    /** The node to take down, which must not be this endpoint's own: it would stop before it could answer. */
    private int otherNode(Map<String, Object> in) {
        int node = (int) number(in, "node");
        if (controls.isSelf(node)) {
            throw new IllegalArgumentException("node " + node + " serves this endpoint: ask another node's to stop it");
        }
        return node;
    }

    private Object awaitRequest(Map<String, Object> in) throws InterruptedException {
        long timeoutMs = Math.min(MAX_AWAIT_MS, in.containsKey("timeoutMs") ? number(in, "timeoutMs") : 10_000);
        RequestMatch match = match(in);
        String error = text(in, "error");
        Optional<LoggedRequest> found = error == null
                ? controls.requestLog().await(match, Duration.ofMillis(timeoutMs))
                : controls.requestLog().awaitAnswer(match, error(error), Duration.ofMillis(timeoutMs));
        return found.<Object>map(ControlsJson::json).orElse(TimedOut.INSTANCE);
    }

    private Map<String, Object> state() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("errors", controls.errorRules().stream().map(ControlsJson::json).toList());
        state.put("hung", controls.hung());
        state.put("recording", controls.requestLog().recording());
        state.put("manualClock", controls.clockIsManual());
        return state;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.isBlank()) {
                return Map.of();
            }
            Object parsed = Json.parse(text);
            if (!(parsed instanceof Map)) {
                throw new IllegalArgumentException("the body is a JSON object");
            }
            return (Map<String, Object>) parsed;
        }
    }

    /** {@code a=1&b=x} as a map, for the log's GET query. */
    private static Map<String, Object> query(String raw) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String key = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            parameters.put(key, value);
        }
        return parameters;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow(); // an await in progress ends at once
    }
}
