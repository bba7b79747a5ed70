package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** With delete.topic.enable=false the controller refuses DeleteTopics sent to any node, and the topic stays. */
class ClusterTopicDeletionDisabledTest {

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        // No node stops here: a long session, so that a loaded machine cannot fence a live node meanwhile.
        cluster = MiniCluster.start(2, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "30000", "delete.topic.enable", "false"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two live brokers");
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void deleteTopicsIsTopicDeletionDisabled() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(1).boundPort("PLAINTEXT")))) {
            admin.createTopics(List.of(new NewTopic("kept", 1, (short) 2))).all().get();
            await(() -> Files.isDirectory(cluster.logDir(1).resolve("kept-0")), "node 1 to host kept-0");
            assertThatThrownBy(() -> admin.deleteTopics(List.of("kept")).all().get())
                    .hasCauseInstanceOf(TopicDeletionDisabledException.class);
            assertThat(admin.listTopics().names().get()).contains("kept");
        }
        assertThat(Files.isDirectory(cluster.logDir(1).resolve("kept-0"))).isTrue();
    }
}
