package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the coordinators hear as the images move a partition's leadership: a leader that goes on leading in a new
 * term (a reassignment removed a follower) is told the new epoch and is never resigned, as Kafka's coordinators
 * hear only onElection then; one whose leadership moves away resigns. The broker's clock is manual and never
 * moved, so no ISR check asks the (absent) controller anything.
 */
class LeadershipTermTest {

    private static final UUID TOPIC_ID = UUID.randomUUID();
    private static final TopicPartition PARTITION = new TopicPartition("t", 0);

    @TempDir
    Path logDir;

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private TopicRegistry topics;
    private ReplicaManager replicas;

    @BeforeEach
    void start() throws IOException {
        BrokerClock clock = BrokerClock.manual(new ManualClock());
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString(), "node.id", "0")),
                Clock.systemUTC());
        replicas = TestReplicaManagers.nodeZero(topics, 1, 30_000, clock);
        replicas.setLeadershipListener(new ReplicaManager.LeadershipListener() {
            @Override
            public void onLeading(TopicPartition partition, int leaderEpoch) {
                heard.add("leading " + partition.partition() + " at " + leaderEpoch);
            }

            @Override
            public void onResigned(TopicPartition partition) {
                heard.add("resigned " + partition.partition());
            }
        });
    }

    @AfterEach
    void close() throws IOException {
        replicas.close();
        topics.close();
    }

    @Test
    void aLeaderThatLosesAFollowerGoesOnLeadingAtTheNewEpochWithoutResigning() {
        replicas.apply(image(0, 0, List.of(0, 1, 2)));
        replicas.apply(image(0, 1, List.of(0, 1)));

        assertThat(heard).containsExactly("leading 0 at 0", "leading 0 at 1");
        assertThat(replicas.isLeader(PARTITION)).isTrue();
    }

    @Test
    void aLeaderWhoseLeadershipMovesAwayResigns() {
        replicas.apply(image(0, 0, List.of(0, 1, 2)));
        replicas.apply(image(1, 1, List.of(0, 1, 2)));

        assertThat(heard).containsExactly("leading 0 at 0", "resigned 0");
    }

    private static ClusterMetadata image(int leader, int leaderEpoch, List<Integer> replicas) {
        return new ClusterMetadata(List.of(new BrokerNode(0, "PLAINTEXT", "localhost", 1),
                new BrokerNode(1, "PLAINTEXT", "localhost", 2), new BrokerNode(2, "PLAINTEXT", "localhost", 3)),
                Map.of("t", new TopicImage("t", TOPIC_ID, List.of(new PartitionImage(0, leader, leaderEpoch,
                        replicas, replicas, List.of())), Map.of())));
    }
}
