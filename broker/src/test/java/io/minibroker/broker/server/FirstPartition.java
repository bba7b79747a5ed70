package io.minibroker.broker.server;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A topic's partition 0 as the controller has it now: the leader and ISR it decided on, which every broker's image
 * reaches in turn. Not a client's describeTopics: the Admin sends that to whichever broker it picks, whose image may
 * lag the controller's by a change or two, so that a wait for the ISR to be whole again could pass on an image from
 * before it shrank (a restarted broker replaying the metadata log), or an election be asked for before the
 * controller has the replica back in the ISR.
 */
public final class FirstPartition {

    private final MiniCluster cluster;
    private final String topic;

    public FirstPartition(MiniCluster cluster, String topic) {
        this.cluster = cluster;
        this.topic = topic;
    }

    /** The leader's id, or -1 when there is none or the topic is not created yet. */
    public int leader() {
        return image().map(PartitionImage::leader).orElse(-1);
    }

    /** The ISR's ids in ascending order, empty while the topic is not created. */
    public List<Integer> isr() {
        return image().map(partition -> partition.isr().stream().sorted().toList()).orElse(List.of());
    }

    /** The leader epoch, or -1 while the topic is not created. */
    public int leaderEpoch() {
        return image().map(PartitionImage::leaderEpoch).orElse(-1);
    }

    private Optional<PartitionImage> image() {
        return cluster.controller().topicAssignments().image().topic(topic)
                .map(image -> image.partitions().get(0));
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT")));
    }
}
