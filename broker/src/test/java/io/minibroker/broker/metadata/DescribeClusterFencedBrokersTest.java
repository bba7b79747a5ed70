package io.minibroker.broker.metadata;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * DescribeCluster v2's IncludeFencedBrokers, as kafka-clients' AdminClient asks for it: a broker that shut down is
 * fenced, left out of the brokers unless the fenced ones are asked for, and then listed IsFenced.
 */
@Timeout(120)
class DescribeClusterFencedBrokersTest {

    @Test
    void aFencedBrokerIsListedOnlyWhenAskedForAndMarkedFenced() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     "localhost:" + cluster.node(0).boundPort("PLAINTEXT")))) {
            await(() -> nodes(admin, false).size() == 3, "three live brokers");
            cluster.stop(2);
            await(() -> nodes(admin, false).size() == 2, "broker 2 fenced");

            assertThat(nodes(admin, false)).extracting(Node::id, Node::isFenced)
                    .containsExactly(tuple(0, false),
                            tuple(1, false));
            List<Node> withFenced = nodes(admin, true);
            assertThat(withFenced).extracting(Node::id, Node::isFenced)
                    .containsExactly(tuple(0, false),
                            tuple(1, false),
                            tuple(2, true));
            assertThat(withFenced.get(2).port()).isPositive();
        }
    }

    /** The brokers DescribeCluster lists, by id; the fenced ones too if asked (shared with BrokerRackTest). */
    static List<Node> nodes(Admin admin, boolean includeFenced) {
        try {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                    .includeFencedBrokers(includeFenced)).nodes().get();
            return nodes.stream().sorted(Comparator.comparingInt(Node::id)).toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
