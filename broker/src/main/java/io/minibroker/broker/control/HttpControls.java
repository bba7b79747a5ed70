package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@link Controls} of a broker in another process or a container, through its controls endpoint
 * ({@code minibroker.controls.port}): the same Java API as in process, each call one HTTP request. A refused
 * operation throws {@link IllegalStateException} with the endpoint's message.
 */
public final class HttpControls implements Controls {

    /** How long an ordinary call may take; an await gets its own timeout on top. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final int TIMED_OUT = 408;

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CALL_TIMEOUT).build();
    private final RequestLog log = new HttpRequestLog();

    /** @param base the endpoint, {@code http://host:port} */
    public HttpControls(URI base) {
        this.base = base;
    }

    /** The endpoint at {@code host:port}. */
    public static HttpControls at(String host, int port) {
        return new HttpControls(URI.create("http://" + host + ":" + port));
    }

    @Override
    public long inject(ErrorRule rule) {
        return ControlsJson.number(object(call("POST", "/errors", ControlsJson.json(rule))), "id");
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<InstalledRule> errorRules() {
        return ((List<Map<String, Object>>) Json.parse(call("GET", "/errors", null).body())).stream()
                .map(ControlsJson::installedRule).toList();
    }

    @Override
    public boolean removeErrorRule(long id) {
        return ControlsJson.flag(object(call("DELETE", "/errors/" + id, null)), "removed", false);
    }

    @Override
    public void clearErrorRules() {
        call("DELETE", "/errors", null);
    }

    @Override
    public void delay(ApiKey api, long ms) {
        call("POST", "/delay", Map.of("api", api.name(), "ms", ms));
    }

    @Override
    public void delayAll(long ms) {
        call("POST", "/delay", Map.of("ms", ms));
    }

    @Override
    public void clearDelays() {
        call("DELETE", "/delay", null);
    }

    @Override
    public void hang() {
        call("POST", "/hang", null);
    }

    @Override
    public void resume() {
        call("POST", "/resume", null);
    }

    @Override
    public boolean hung() {
        return ControlsJson.flag(state(), "hung", false);
    }

    @Override
    public void closeConnections() {
        call("POST", "/connections/close", null);
    }

    @Override
    public void refuseConnections(boolean refuse) {
        call("POST", "/connections/refuse", Map.of("refuse", refuse));
    }

    @Override
    public void capVersion(ApiKey api, int maxVersion) {
        call("POST", "/versions", Map.of("api", api.name(), "maxVersion", maxVersion));
    }

    @Override
    public void clearVersionCaps() {
        call("DELETE", "/versions", null);
    }

    @Override
    public void moveLeader(String topic, int partition, int node) {
        call("POST", "/leaders/move", Map.of("topic", topic, "partition", partition, "node", node));
    }

    @Override
    public void moveGroupCoordinator(String group, int node) {
        call("POST", "/coordinators/move", Map.of("group", group, "node", node));
    }

    @Override
    public void moveTransactionCoordinator(String transactionalId, int node) {
        call("POST", "/coordinators/move", Map.of("transactionalId", transactionalId, "node", node));
    }

    @Override
    public List<Integer> shrinkIsr(String topic, int partition, int node) {
        return isr(call("POST", "/isr/shrink", Map.of("topic", topic, "partition", partition, "node", node)));
    }

    @Override
    public List<Integer> growIsr(String topic, int partition, int node) {
        return isr(call("POST", "/isr/grow", Map.of("topic", topic, "partition", partition, "node", node)));
    }

    @SuppressWarnings("unchecked")
    private static List<Integer> isr(HttpResponse<String> response) {
        return ((List<Number>) object(response).get("isr")).stream().map(Number::intValue).toList();
    }

    @Override
    public void lagFollower(String topic, int partition) {
        call("POST", "/followers/lag", followed(topic, partition));
    }

    @Override
    public void resumeFollower(String topic, int partition) {
        call("POST", "/followers/resume", followed(topic, partition));
    }

    @Override
    public void slowFollower(String topic, int partition, Duration delay) {
        Map<String, Object> body = followed(topic, partition);
        body.put("delayMs", delay.toMillis());
        call("POST", "/followers/slow", body);
    }

    private static Map<String, Object> followed(String topic, int partition) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (topic != null) {
            body.put("topic", topic);
        }
        if (partition >= 0) {
            body.put("partition", partition);
        }
        return body;
    }

    @Override
    public void killNode(int node) {
        call("POST", "/nodes/kill", Map.of("node", node));
    }

    @Override
    public void stopNode(int node) {
        call("POST", "/nodes/stop", Map.of("node", node));
    }

    @Override
    public void restartNode(int node) {
        call("POST", "/nodes/restart", Map.of("node", node));
    }

    @Override
    public RequestLog requestLog() {
        return log;
    }

    @Override
    public void advanceClock(Duration by) {
        call("POST", "/clock/advance", Map.of("ms", by.toMillis()));
    }

    @Override
    public boolean clockIsManual() {
        return ControlsJson.flag(state(), "manualClock", false);
    }

    @Override
    public void reset() {
        call("POST", "/reset", null);
    }

    private Map<String, Object> state() {
        return object(call("GET", "/", null));
    }

    /** The request log over the endpoint. */
    private final class HttpRequestLog implements RequestLog {

        @Override
        public void start() {
            call("POST", "/requests/start", null);
        }

        @Override
        public void stop() {
            call("POST", "/requests/stop", null);
        }

        @Override
        public boolean recording() {
            return ControlsJson.flag(state(), "recording", false);
        }

        @Override
        public void clear() {
            call("DELETE", "/requests", null);
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<LoggedRequest> find(RequestMatch match) {
            String query = ControlsJson.json(match).entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(String.valueOf(e.getValue()), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            String path = query.isEmpty() ? "/requests" : "/requests?" + query;
            return ((List<Map<String, Object>>) Json.parse(call("GET", path, null).body())).stream()
                    .map(ControlsJson::loggedRequest).toList();
        }

        @Override
        public Optional<LoggedRequest> await(RequestMatch match, Duration timeout) throws InterruptedException {
            return awaitWith(ControlsJson.json(match), timeout);
        }

        @Override
        public Optional<LoggedRequest> awaitAnswer(RequestMatch match, Errors error, Duration timeout)
                throws InterruptedException {
            Map<String, Object> body = ControlsJson.json(match);
            body.put("error", error.name());
            return awaitWith(body, timeout);
        }

        private Optional<LoggedRequest> awaitWith(Map<String, Object> body, Duration timeout)
                throws InterruptedException {
            body.put("timeoutMs", timeout.toMillis());
            HttpResponse<String> response = send(request("POST", "/requests/await", body, timeout.plus(CALL_TIMEOUT)));
            if (response.statusCode() == TIMED_OUT) {
                return Optional.empty();
            }
            return Optional.of(ControlsJson.loggedRequest(object(checked(response))));
        }
    }

    private HttpResponse<String> call(String method, String path, Map<String, Object> body) {
        try {
            return checked(send(request(method, path, body, CALL_TIMEOUT)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling " + method + " " + path, e);
        }
    }

    private HttpRequest request(String method, String path, Map<String, Object> body, Duration timeout) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(Json.write(new LinkedHashMap<>(body))))
                .build();
    }

    private HttpResponse<String> send(HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the controls at " + base, e);
        }
    }

    private static HttpResponse<String> checked(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            Object error = object(response.body()).get("error");
            throw new IllegalStateException(response.request().method() + " " + response.request().uri().getPath()
                    + " answered " + response.statusCode() + ": " + error);
        }
        return response;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(HttpResponse<String> response) {
        return object(response.body());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String json) {
        return (Map<String, Object>) Json.parse(json);
    }
}
