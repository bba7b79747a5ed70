package io.minibroker.broker.replica;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;

import java.util.List;
import java.util.Map;

/**
 * What the cluster's metadata says of a topic's partition 0, as a client's describeTopics answers it: the Admin is
 * bootstrapped at the controller's node but asks whichever broker it picks, whose image may lag the controller's
 * by a change or two (eventually the same everywhere). For what the controller decides on now, ask the controller.
 */
final class FirstPartition {

    private final MiniCluster cluster;
    private final String topic;

    FirstPartition(MiniCluster cluster, String topic) {
        this.cluster = cluster;
        this.topic = topic;
    }

    /** The leader's id, or -1 when there is none or the metadata cannot be had. */
    int leader() {
        try {
            Node leader = describe().partitions().get(0).leader();
            return leader == null ? -1 : leader.id();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The ISR's ids in ascending order, empty when the metadata cannot be had. */
    List<Integer> isr() {
        try {
            return describe().partitions().get(0).isr().stream().map(Node::id).sorted().toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private TopicDescription describe() {
        try (Admin admin = admin()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT")));
    }
}
