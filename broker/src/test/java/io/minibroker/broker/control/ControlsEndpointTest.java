package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every operation of the controls' HTTP endpoint once, with the JDK's HTTP client, its effect seen by real clients. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControlsEndpointTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private final ManualClock clock = new ManualClock();
    private EmbeddedBroker broker;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start(Map.of("minibroker.controls.port", "0"), clock);
        InetSocketAddress address = broker.broker().controlsAddress();
        assertThat(address.getPort()).isNotEqualTo(broker.broker().boundPort("PLAINTEXT"));
        base = URI.create("http://127.0.0.1:" + address.getPort());
        Clients.createTopic(broker, "web", 1);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void offByDefault() throws Exception {
        try (EmbeddedBroker plain = EmbeddedBroker.start()) {
            assertThatThrownBy(() -> plain.broker().controlsAddress()).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void errorRulesAreSetListedAndRemoved() throws Exception {
        Map<String, Object> set = object(call("POST", "/errors",
                "{\"api\": \"DescribeCluster\", \"error\": \"CLUSTER_AUTHORIZATION_FAILED\", \"count\": -1}", 200));
        long id = (Long) set.get("id");
        assertThat(single(call("GET", "/errors", null, 200)))
                .containsEntry("api", "DESCRIBE_CLUSTER").containsEntry("remaining", -1L);
        try (Admin admin = Clients.admin(broker, Map.of())) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThat(object(call("DELETE", "/errors/" + id, null, 200))).containsEntry("removed", true);
            assertThat(admin.describeCluster().clusterId().get()).isNotEmpty();
        }
        call("POST", "/errors", "{\"api\": \"PRODUCE\", \"error\": 19, \"topic\": \"web\", \"partition\": 0,"
                + " \"afterServing\": true}", 200);
        assertThat(single(call("GET", "/errors", null, 200))).containsEntry("error", "NOT_ENOUGH_REPLICAS")
                .containsEntry("afterServing", true).containsEntry("partition", 0L);
        call("DELETE", "/errors", null, 200);
        assertThat(broker.controls().errorRules()).isEmpty();
        assertThat(object(call("POST", "/errors", "{\"api\": \"NoSuchApi\", \"error\": \"NONE\"}", 400)))
                .containsKey("error");
        call("GET", "/nothing-here", null, 404);
    }

    @Test
    void requestLogDelayVersionsAndReset() throws Exception {
        call("POST", "/requests/start", null, 200);
        call("POST", "/delay", "{\"api\": \"Produce\", \"ms\": 50}", 200);
        call("POST", "/delay", "{\"ms\": 20}", 200);
        call("POST", "/versions", "{\"api\": \"Produce\", \"maxVersion\": 9}", 200);
        CompletableFuture<HttpResponse<String>> awaiting = http.sendAsync(request("POST", "/requests/await",
                "{\"api\": \"Produce\", \"topic\": \"web\", \"clientId\": \"web-producer\", \"timeoutMs\": 30000}"),
                HttpResponse.BodyHandlers.ofString());
        try (KafkaProducer<String, String> producer = Clients.producer(broker,
                Map.of(ProducerConfig.CLIENT_ID_CONFIG, "web-producer"))) {
            producer.send(new ProducerRecord<>("web", "v")).get();
        }
        HttpResponse<String> awaited = awaiting.get();
        assertThat(awaited.statusCode()).isEqualTo(200);
        assertThat(object(awaited.body())).containsEntry("api", "PRODUCE").containsEntry("version", 9L)
                .containsEntry("topics", Map.of("web", List.of(0L)));
        List<Object> produces = list(call("GET", "/requests?api=Produce&clientId=web-producer", null, 200));
        assertThat(produces).isNotEmpty().allSatisfy(logged -> {
            Map<?, ?> entry = (Map<?, ?>) logged;
            assertThat((Long) entry.get("answeredMs")).isGreaterThanOrEqualTo((Long) entry.get("arrivalMs"));
        });
        call("DELETE", "/delay", null, 200);
        call("DELETE", "/versions", null, 200);
        assertThat(object(call("POST", "/requests/await", "{\"api\": \"OffsetCommit\", \"timeoutMs\": 10}", 408)))
                .containsEntry("timedOut", true);
        call("POST", "/requests/stop", null, 200);
        call("DELETE", "/requests", null, 200);
        assertThat(list(call("GET", "/requests", null, 200))).isEmpty();
        call("POST", "/hang", null, 200);
        assertThat(object(call("GET", "/", null, 200))).containsEntry("hung", true).containsEntry("manualClock", true);
        call("POST", "/reset", null, 200);
        assertThat(broker.controls().engaged()).isFalse();
    }

    @Test
    void hangResumeConnectionsAndClock() throws Exception {
        try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
            producer.send(new ProducerRecord<>("web", "before")).get();
            call("POST", "/requests/start", null, 200);
            call("POST", "/hang", null, 200);
            var held = producer.send(new ProducerRecord<>("web", "held"));
            assertThat(object(call("POST", "/requests/await", "{\"api\": \"Produce\"}", 200)))
                    .containsEntry("answeredMs", -1L);
            assertThat(held).isNotDone();
            call("POST", "/resume", null, 200);
            assertThat(held.get().offset()).isEqualTo(1);
        }
        call("POST", "/connections/refuse", "{\"refuse\": true}", 200);
        call("POST", "/connections/close", null, 200);
        call("POST", "/connections/refuse", "{\"refuse\": false}", 200);
        try (Admin admin = Clients.admin(broker, Map.of())) {
            assertThat(admin.describeCluster().clusterId().get()).isNotEmpty();
        }
        long before = clock.nowMs();
        call("POST", "/clock/advance", "{\"ms\": 60000}", 200);
        assertThat(clock.nowMs()).isEqualTo(before + 60_000);
    }

    @Test
    void advancingTheSystemClockIsRefused() throws Exception {
        try (EmbeddedBroker systemClock = EmbeddedBroker.start(Map.of("minibroker.controls.port", "0"))) {
            URI other = URI.create("http://127.0.0.1:" + systemClock.broker().controlsAddress().getPort());
            HttpResponse<String> refused = http.send(HttpRequest.newBuilder(other.resolve("/clock/advance"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"ms\": 1}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("ManualClock");
        }
    }

    private String call(String method, String path, String body, int status) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        return response.body();
    }

    private HttpRequest request(String method, String path, String body) {
        return HttpRequest.newBuilder(base.resolve(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String json) {
        return (Map<String, Object>) Json.parse(json);
    }

    /** The one element of a JSON array of objects. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> single(String json) {
        assertThat(list(json)).hasSize(1);
        return (Map<String, Object>) list(json).get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(String json) {
        return (List<Object>) Json.parse(json);
    }
}
