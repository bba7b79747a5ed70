package io.minibroker.broker.metadata;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.metadata.DescribeClusterFencedBrokersTest.nodes;
import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code broker.rack}, as Kafka 4.3.1 has it: a static broker config, carried in the broker's registration with the
 * controller, and told to clients in Metadata (every version from v1, which brought the field) and DescribeCluster,
 * on one node and in a cluster, where a broker without one has none (null), and again after the controller restarts
 * and the brokers register anew.
 */
@Timeout(180)
class BrokerRackTest {

    @Test
    void aSingleNodeDescribesAndAnswersItsRack() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of("broker.rack", "rack-a"));
             Admin admin = admin(broker.bootstrapServers());
             NodeChannel channel = new NodeChannel("localhost", broker.broker().boundPort("PLAINTEXT"),
                     "broker-rack-test", 30_000)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            ConfigEntry rack = config.get("broker.rack");
            assertThat(rack.value()).isEqualTo("rack-a");
            assertThat(rack.source()).isEqualTo(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG);
            assertThat(rack.isReadOnly()).isTrue();

            assertThat(nodes(admin, false)).extracting(Node::id, Node::rack).containsExactly(tuple(1, "rack-a"));
            for (short version = 1; version <= ApiKey.METADATA.highestVersion(); version++) {
                Struct answer = channel.send(ApiKey.METADATA, version,
                        ApiKey.METADATA.request().newMessage().set("Topics", new ArrayList<>()));
                assertThat(answer.getStructs("Brokers")).as("Metadata v%d", version)
                        .extracting(listed -> listed.getString("Rack")).containsExactly("rack-a");
            }
        }
    }

    @Test
    void aSingleNodeWithoutARackHasNone() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of());
             Admin admin = admin(broker.bootstrapServers())) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, "1");
            ConfigEntry rack = admin.describeConfigs(List.of(resource)).all().get().get(resource).get("broker.rack");
            assertThat(rack.value()).isNull();
            assertThat(rack.source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            assertThat(nodes(admin, false)).extracting(Node::rack).containsExactly((String) null);
        }
    }

    @Test
    void aClusterTellsEachBrokersRackAndKeepsThemAcrossAControllerRestart() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of(),
                id -> id == 2 ? Map.of() : Map.of("broker.rack", "rack-" + id))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
            try (Admin admin = admin("localhost:" + cluster.node(2).boundPort("PLAINTEXT"))) {
                admin.createTopics(List.of(new NewTopic("racked", Map.of(0, List.of(0, 1, 2))))).all().get();
                await(() -> nodes(admin, false).size() == 3, "three brokers described");
                assertThat(nodes(admin, false)).extracting(Node::id, Node::rack)
                        .containsExactly(tuple(0, "rack-0"), tuple(1, "rack-1"), tuple(2, null));
                await(() -> replicaRacks(admin).size() == 3, "Metadata to name the three replicas");
                assertThat(replicaRacks(admin)).containsExactly("rack-0", "rack-1", null);

                cluster.stop(1);
                await(() -> nodes(admin, false).size() == 2, "node 1 fenced");
                assertThat(nodes(admin, true)).extracting(Node::id, Node::rack, Node::isFenced)
                        .containsExactly(tuple(0, "rack-0", false), tuple(1, "rack-1", true), tuple(2, null, false));

                cluster.restart(1);
                cluster.stop(0);
                cluster.restart(0); // the controller: its registrations start empty, and the brokers register again
                await(() -> nodes(admin, false).size() == 3, "three brokers registered with the new controller");
                assertThat(nodes(admin, false)).extracting(Node::id, Node::rack)
                        .containsExactly(tuple(0, "rack-0"), tuple(1, "rack-1"), tuple(2, null));
            }
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** The racks of topic {@code racked}'s partition 0's replicas, as Metadata names them, by replica id. */
    private static List<String> replicaRacks(Admin admin) {
        try {
            return admin.describeTopics(List.of("racked")).allTopicNames().get().get("racked").partitions().get(0)
                    .replicas().stream().sorted(Comparator.comparingInt(Node::id)).map(Node::rack).toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
