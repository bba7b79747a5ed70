package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the group coordinator hears of deleted topics from the images a cluster broker applies, as Kafka's brokers
 * hand every topic that left the metadata to it: each topic of the image before whose id the new one does not have,
 * whether this broker hosts a replica of it or not, and a name deleted and created again between two images too.
 * The broker's clock is manual and never moved, so no ISR check asks the (absent) controller anything.
 */
class TopicDeletionsFromImagesTest {

    private static final TopicImage HOSTED = topic("hosted", UUID.randomUUID(), 0);
    private static final TopicImage ELSEWHERE = topic("elsewhere", UUID.randomUUID(), 1);

    @TempDir
    Path logDir;

    private final List<TopicMetadata> heard = new CopyOnWriteArrayList<>();
    private TopicRegistry topics;
    private ReplicaManager replicas;

    @BeforeEach
    void start() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString(), "node.id", "0")),
                Clock.systemUTC());
        replicas = TestReplicaManagers.nodeZero(topics, 1, 30_000, BrokerClock.manual(new ManualClock()));
        replicas.setTopicDeletionListener(heard::addAll);
    }

    @AfterEach
    void close() throws IOException {
        replicas.close();
        topics.close();
    }

    @Test
    void theFirstImageDeletesNothing() {
        replicas.apply(image(HOSTED, ELSEWHERE));

        assertThat(heard).isEmpty();
    }

    @Test
    void aTopicGoneFromTheImageIsHeardOfWhetherHostedHereOrNot() {
        replicas.apply(image(HOSTED, ELSEWHERE));
        replicas.apply(image());

        assertThat(heard).extracting(TopicMetadata::name).containsExactlyInAnyOrder("hosted", "elsewhere");
        assertThat(heard).extracting(TopicMetadata::id).containsExactlyInAnyOrder(HOSTED.id(), ELSEWHERE.id());
        assertThat(topics.get("hosted")).as("its replica deleted here too").isEmpty();

        replicas.apply(image());
        assertThat(heard).as("once").hasSize(2);
    }

    @Test
    void aNameDeletedAndCreatedAgainBetweenTwoImagesIsHeardOfAsDeleted() {
        replicas.apply(image(HOSTED, ELSEWHERE));
        TopicImage again = topic("elsewhere", UUID.randomUUID(), 1);
        replicas.apply(image(HOSTED, again));

        assertThat(heard).singleElement().satisfies(deleted -> {
            assertThat(deleted.name()).isEqualTo("elsewhere");
            assertThat(deleted.id()).isEqualTo(ELSEWHERE.id());
        });
    }

    /** Both replication throttles forget a deleted topic's throttled-replica lists. */
    @Test
    void aTopicGoneFromTheImageLeavesNoThrottledReplicaListBehind() {
        replicas.close();
        BrokerConfig config = BrokerConfig.of(Map.of());
        ManualClock clock = new ManualClock();
        Map<String, String> throttledEverywhere = Map.of(TopicConfig.LEADER_REPLICATION_THROTTLED_REPLICAS, "*",
                TopicConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS, "*");
        Function<String, Optional<Map<String, String>>> overrides = name -> Optional.of(throttledEverywhere);
        ReplicationQuota leader = ReplicationQuota.leader(config, overrides, clock::nowMs);
        ReplicationQuota follower = ReplicationQuota.follower(config, overrides, clock::nowMs);
        replicas = TestReplicaManagers.nodeZero(topics, 1, 30_000, BrokerClock.manual(clock), leader, follower);
        replicas.apply(image(HOSTED, ELSEWHERE));
        for (ReplicationQuota quota : List.of(leader, follower)) {
            assertThat(quota.isThrottled(new TopicPartition("hosted", 0))).isTrue();
            assertThat(quota.isThrottled(new TopicPartition("elsewhere", 0))).isTrue();
        }

        replicas.apply(image(ELSEWHERE));

        assertThat(leader.keptTopics()).containsExactly("elsewhere");
        assertThat(follower.keptTopics()).containsExactly("elsewhere");
    }

    private static TopicImage topic(String name, UUID id, int replica) {
        List<Integer> replicas = List.of(replica);
        return new TopicImage(name, id, List.of(new PartitionImage(0, replica, 0, replicas, replicas, List.of())),
                Map.of());
    }

    private static ClusterMetadata image(TopicImage... topics) {
        Map<String, TopicImage> byName = new LinkedHashMap<>();
        for (TopicImage topic : topics) {
            byName.put(topic.name(), topic);
        }
        return new ClusterMetadata(List.of(new BrokerNode(0, "PLAINTEXT", "localhost", 1),
                new BrokerNode(1, "PLAINTEXT", "localhost", 2)), byName);
    }
}
