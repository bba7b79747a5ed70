package io.minibroker.broker.admin;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ListConfigResources through kafka-clients' Admin, compared with what a Kafka 4.3.1 node listed for the same
 * requests (2026-11-28): every type in Kafka's order when none is named, each type alone, CLIENT_METRICS empty (no
 * subscriptions set), UNSUPPORTED_VERSION for a type the version does not know, and v0 (the deprecated
 * listClientMetricsResources). The ACL check is in authz/AdminAclsTest.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ListConfigResourcesTest {

    @TempDir
    Path logDir;

    @Test
    void aSingleNodeListsItsGroupsWithConfigsItselfAndItsTopics() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "billing"),
                    List.of(new AlterConfigOp(new ConfigEntry("consumer.session.timeout.ms", "50000"),
                            AlterConfigOp.OpType.SET)))).all().get();

            assertThat(listed(admin, Set.of())).containsExactly("GROUP:billing", "BROKER_LOGGER:1", "BROKER:1",
                    "TOPIC:orders");
            assertThat(listed(admin, Set.of(ConfigResource.Type.TOPIC))).containsExactly("TOPIC:orders");
            assertThat(listed(admin, Set.of(ConfigResource.Type.BROKER))).containsExactly("BROKER:1");
            assertThat(listed(admin, Set.of(ConfigResource.Type.GROUP))).containsExactly("GROUP:billing");
            assertThat(listed(admin, Set.of(ConfigResource.Type.CLIENT_METRICS))).isEmpty();
            assertThatThrownBy(() -> listed(admin, Set.of(ConfigResource.Type.UNKNOWN)))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnsupportedVersionException.class);
            @SuppressWarnings("removal")
            Collection<?> clientMetrics = admin.listClientMetricsResources().all().get();
            assertThat(clientMetrics).as("v0").isEmpty();

            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "billing"),
                    List.of(new AlterConfigOp(new ConfigEntry("consumer.session.timeout.ms", null),
                            AlterConfigOp.OpType.DELETE)))).all().get();
            assertThat(listed(admin, Set.of(ConfigResource.Type.GROUP))).as("no config left").isEmpty();
        }
    }

    @Test
    void aClusterListsItsLiveBrokersTheImagesTopicsAndGroupConfigs() throws Exception {
        MiniCluster cluster = MiniCluster.start(3, Map.of());
        try {
            try (Admin admin = admin(cluster, 0)) {
                admin.createTopics(List.of(new NewTopic("orders", 2, (short) 3))).all().get();
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "billing"),
                        List.of(new AlterConfigOp(new ConfigEntry("consumer.session.timeout.ms", "50000"),
                                AlterConfigOp.OpType.SET)))).all().get();
            }
            for (int node = 0; node < 3; node++) {
                try (Admin admin = admin(cluster, node)) {
                    await(() -> listedNow(admin).equals(List.of("GROUP:billing", "BROKER_LOGGER:0",
                            "BROKER_LOGGER:1", "BROKER_LOGGER:2", "BROKER:0", "BROKER:1", "BROKER:2", "TOPIC:orders")),
                            "the listing through node " + node);
                }
            }
        } finally {
            cluster.close();
        }
    }

    private static List<String> listed(Admin admin, Set<ConfigResource.Type> types) throws Exception {
        return admin.listConfigResources(types, new ListConfigResourcesOptions()).all().get().stream()
                .map(resource -> resource.type() + ":" + resource.name()).toList();
    }

    /** What the node lists now; nothing while an answer fails (a broker still catching up with the image). */
    private static List<String> listedNow(Admin admin) {
        try {
            return listed(admin, Set.of());
        } catch (Exception e) {
            return List.of();
        }
    }

    private static Admin admin(MiniCluster cluster, int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
