package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.tools.ClusterTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-cluster.sh (kafka-tools 4.3.1's ClusterTool, in a child JVM as its script runs it) against one broker. The
 * expected text is what the same commands printed against a Kafka 4.3.1 node formatted with its defaults
 * (2026-11-28; the port and the cluster id apart, and the spaces that pad the last column). An unknown id's refusal
 * ("Broker ID 5 is not currently registered") is on standard error, with an exit of 1, on both.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterToolCommandTest {

    private static final String ENDPOINTS = """
            ID         HOST      PORT       RACK       STATE      ENDPOINT_TYPE
            1          localhost PORT       null       unfenced   broker
            """;

    @Test
    void clusterIdEndpointsAndUnregistrationAsOnKafka() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of())) {
            String bootstrap = broker.bootstrapServers();
            String clusterId;
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                clusterId = admin.describeCluster().clusterId().get();
            }
            String port = bootstrap.replaceAll(".*:", "");

            assertThat(KafkaTool.run(ClusterTool.class, "cluster-id", "--bootstrap-server", bootstrap))
                    .isEqualTo("Cluster ID: " + clusterId + "\n");
            // An ephemeral port has five digits, as PORT has letters and the 4.3.1 node's port had.
            assertThat(lines(KafkaTool.run(ClusterTool.class, "list-endpoints", "--bootstrap-server", bootstrap))
                    .replace(port, "PORT ")).isEqualTo(ENDPOINTS);
            assertThat(lines(KafkaTool.run(ClusterTool.class, "list-endpoints", "--bootstrap-server", bootstrap,
                    "--include-fenced-brokers")).replace(port, "PORT ")).isEqualTo(ENDPOINTS);
            assertThat(KafkaTool.runExiting(1, ClusterTool.class, "unregister", "--id", "5", "--bootstrap-server",
                    bootstrap)).isEmpty();
            assertThat(KafkaTool.run(ClusterTool.class, "unregister", "--id", "1", "--bootstrap-server", bootstrap))
                    .isEqualTo("Broker 1 is no longer registered.\n");
        }
    }

    private static String lines(String output) {
        return output.lines().map(line -> line.stripTrailing() + "\n").collect(Collectors.joining());
    }
}
