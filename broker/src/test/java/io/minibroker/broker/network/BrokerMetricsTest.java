package io.minibroker.broker.network;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BrokerMetricsTest {

    @Test
    void requestsBytesConnectionsAndLogsAreScrapedFromTheMetricsPort(@TempDir Path logDir) throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("metrics.port", "0"))) {
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                for (int i = 0; i < 3; i++) {
                    client.askApiVersions((short) 3, i);
                }

                CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(5_000);
                create.addTopic().name("metered").numPartitions(2).replicationFactor((short) 1);
                client.send(RawClient.request(ApiKey.CREATE_TOPICS, (short) 7, 9, create.struct()));
                client.receive(ApiKey.CREATE_TOPICS, (short) 7);

                String scrape = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + broker.metricsPort() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();

                assertThat(scrape).contains("kafka_network_requestmetrics_requests_total{request=\"ApiVersions\"} 3.0");
                assertThat(scrape).contains("kafka_network_requestmetrics_totaltime_seconds_count{request=\"ApiVersions\"} 3");
                assertThat(scrape).contains("kafka_server_socket_server_metrics_connection_count{listener=\"PLAINTEXT\"} 1.0");
                assertThat(scrape).contains(
                        "kafka_network_requestmetrics_errors_total{error=\"NONE\",request=\"ApiVersions\"} 3.0");
                assertThat(scrape).contains(
                        "kafka_network_requestmetrics_errors_total{error=\"NONE\",request=\"CreateTopics\"} 1.0");
                assertThat(scrape).contains("kafka_log_log_logendoffset{partition=\"1\",topic=\"metered\"} 0.0");
                assertThat(scrape).containsPattern("kafka_server_socket_server_metrics_incoming_byte_total\\{listener=\"PLAINTEXT\"} [1-9]");
                assertThat(scrape).containsPattern("kafka_server_socket_server_metrics_outgoing_byte_total\\{listener=\"PLAINTEXT\"} [1-9]");
                assertThat(scrape).as("a series for each API served, none for the controller's")
                        .contains("kafka_network_requestmetrics_requests_total{request=\"Fetch\"} 0.0")
                        .doesNotContain("request=\"BrokerHeartbeat\"");
            }
            assertThat(broker.metricsAddress().getAddress().isLoopbackAddress())
                    .as("topic names and sizes are served to this machine only unless metrics.host says otherwise")
                    .isTrue();
        }
    }

    @Test
    void anEmptyMetricsHostServesEveryInterface(@TempDir Path logDir) throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of("metrics.port", "0", "metrics.host", ""))) {
            assertThat(broker.metricsAddress().getAddress().isAnyLocalAddress()).isTrue();
        }
    }
}
