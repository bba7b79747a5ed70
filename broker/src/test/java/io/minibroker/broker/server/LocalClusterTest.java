package io.minibroker.broker.server;

import io.minibroker.broker.config.BrokerConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code minibroker --nodes N}: each node's configuration from the common one. */
class LocalClusterTest {

    @Test
    void eachNodeGetsItsPortsItsLogDirectoryAndTheCommonKeys() {
        List<Map<String, String>> configs = LocalCluster.nodeConfigs(3, Map.of("log.dirs", "/data",
                "num.partitions", "3", "node.id", "7", "listeners", "PLAINTEXT://:9092"));

        assertThat(configs).hasSize(3);
        for (int id = 0; id < 3; id++) {
            Map<String, String> node = configs.get(id);
            assertThat(node).containsEntry("node.id", Integer.toString(id))
                    .containsEntry("num.partitions", "3")
                    .containsEntry("log.dirs", "/data/node-" + id)
                    .containsEntry("controller.quorum.voters", "0@localhost:9099");
            assertThat(node.get("listeners")).startsWith("PLAINTEXT://:" + (9092 + 10 * id));
            BrokerConfig config = BrokerConfig.of(node); // each is a valid node of the cluster
            assertThat(config.isController()).isEqualTo(id == 0);
        }
        assertThat(configs.get(0).get("listeners")).contains("CONTROLLER://localhost:9099");
        assertThat(configs.get(1).get("listeners")).doesNotContain("CONTROLLER");
    }

    @Test
    void aKeyPrefixedWithANodeGoesToThatNodeOnly() {
        List<Map<String, String>> configs = LocalCluster.nodeConfigs(2, Map.of(
                "node.1.advertised.listeners", "PLAINTEXT://example.com:19102",
                "node.1.num.partitions", "5", "num.partitions", "2"));

        assertThat(configs.get(1)).containsEntry("advertised.listeners", "PLAINTEXT://example.com:19102")
                .containsEntry("num.partitions", "5");
        assertThat(configs.get(0)).doesNotContainKey("advertised.listeners").containsEntry("num.partitions", "2");
        assertThat(configs.get(0).keySet()).noneMatch(key -> key.startsWith("node.1."));
        assertThat(configs.get(1).keySet()).noneMatch(key -> key.startsWith("node.1."));
    }

    @Test
    void noNodesIsRefused() {
        assertThatThrownBy(() -> LocalCluster.nodeConfigs(0, Map.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
