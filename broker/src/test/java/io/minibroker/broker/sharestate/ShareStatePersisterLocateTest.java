package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster broker that leads a share partition's partition of {@code __share_group_state} keeps its state with its
 * own share coordinator, whether or not it has an endpoint on the listener the persister names other nodes by; and
 * the coordinator of a key is found in one image, however the image changes meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareStatePersisterLocateTest {

    private static final int NODE = 1;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private ShareStatePersister persister;

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create(ShareCoordinator.NAME, 1, 1, Map.of(), false);
        topics.create("data", 1, 1, Map.of(), false); // the share partition's: else UNKNOWN_TOPIC_OR_PARTITION
        ShareCoordinator local = new ShareCoordinator(topics, PartitionLeadership.SINGLE_NODE,
                CoordinatorAppender.SINGLE_NODE, BrokerClock.manual(new ManualClock()), false, Long.MAX_VALUE,
                "share-coordinator-locate-test");
        // This node leads the topic's only partition, and is known on another listener than the inter-broker one.
        ClusterMetadata image = new ClusterMetadata(List.of(new BrokerNode(NODE, "EXTERNAL", "localhost", 1)),
                Map.of(ShareCoordinator.NAME, new TopicImage(ShareCoordinator.NAME, new UUID(2, 2),
                        List.of(new PartitionImage(0, NODE, 0, List.of(NODE), List.of(NODE), List.of())))));
        persister = ShareStatePersister.cluster(NODE, local, () -> image, null, "INTERNAL");
    }

    @AfterEach
    void stop() throws Exception {
        persister.close();
        topics.close();
    }

    /**
     * The first image read has another node leading the key's partition, with no endpoint on the listener; every
     * later one has no such topic at all. Found in the first alone, the coordinator is not available, and the topic
     * that image holds is not asked for.
     */
    @Test
    void theCoordinatorIsFoundInOneImage() throws Exception {
        ClusterMetadata otherLeads = new ClusterMetadata(List.of(new BrokerNode(NODE, "INTERNAL", "localhost", 1)),
                Map.of(ShareCoordinator.NAME, new TopicImage(ShareCoordinator.NAME, new UUID(2, 2),
                        List.of(new PartitionImage(0, 2, 0, List.of(NODE, 2), List.of(NODE, 2), List.of())))));
        ClusterMetadata noTopic = new ClusterMetadata(List.of(), Map.of());
        AtomicInteger reads = new AtomicInteger();
        List<Collection<String>> creations = new CopyOnWriteArrayList<>();
        ShareStatePersister changing = ShareStatePersister.cluster(NODE, null,
                () -> reads.getAndIncrement() == 0 ? otherLeads : noTopic, null, "INTERNAL");
        changing.createTopicWith(creations::add);
        SharePartitionKey key = new SharePartitionKey("g", topics.get("data").orElseThrow().id(), 0);

        assertThatThrownBy(() -> changing.read(key, 0).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(LogException.class)
                .cause().extracting(e -> ((LogException) e).error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(reads).hasValue(1);
        assertThat(creations).isEmpty();
    }

    @Test
    void theLeaderKeepsTheStateItselfWithoutAnEndpointOnTheListener() throws Exception {
        SharePartitionKey key = new SharePartitionKey("g", topics.get("data").orElseThrow().id(), 0);
        persister.initialize(key, 0, -1).toCompletableFuture().get(10, TimeUnit.SECONDS);
        persister.write(key, new ShareStateSnapshot(7, List.of()), 0, 0).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertThat(persister.read(key, 0).toCompletableFuture().get(10, TimeUnit.SECONDS).snapshot().startOffset())
                .isEqualTo(7);
    }
}
