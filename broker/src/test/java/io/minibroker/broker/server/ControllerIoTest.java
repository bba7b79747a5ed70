package io.minibroker.broker.server;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller of a combined node does its disk work on a thread of its own, as Kafka's controller has its own
 * event queue and raft I/O thread: a CreateTopics is decided, saved and applied while the broker's {@code disk-io}
 * thread is held (as by a long fsync of a produce). Before, the controller's requests queued behind it.
 */
class ControllerIoTest {

    private MiniCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aCombinedNodesControllerCreatesATopicWhileTheBrokersDiskThreadIsHeld() throws Exception {
        cluster = MiniCluster.start(1, Map.of());
        await(() -> cluster.controller().membership().liveBrokers().size() == 1, "the broker registered");
        try (AutoCloseable held = TestBrokers.occupyDiskThread(cluster.node(0));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            // Not the admin's own timeout (60 s by default): a CreateTopics left queued behind disk-io fails sooner.
            admin.createTopics(List.of(new NewTopic("created", 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            assertThat(cluster.controller().topicAssignments().image().topic("created")).isPresent();
        }
    }
}
