package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The reference Java client, unmodified, against the broker. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KafkaClientsTest {

    @Test
    void anAdminClientNegotiatesVersionsAndDescribesTheCluster() throws Exception {
        try (Broker broker = Broker.start(BrokerConfig.of(Map.of(
                "listeners", "PLAINTEXT://localhost:0", "node.id", "5", "cluster.id", "clients-test")))) {
            String bootstrap = "localhost:" + broker.boundPort("PLAINTEXT");
            try (Admin admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000))) {
                DescribeClusterResult cluster = admin.describeCluster();

                assertThat(cluster.clusterId().get()).isEqualTo("clients-test");
                Collection<Node> nodes = cluster.nodes().get();
                assertThat(nodes).singleElement().satisfies(node -> {
                    assertThat(node.id()).isEqualTo(5);
                    assertThat(node.port()).isEqualTo(broker.boundPort("PLAINTEXT"));
                });
                assertThat(cluster.controller().get().id()).isEqualTo(5);
            }
        }
    }
}
