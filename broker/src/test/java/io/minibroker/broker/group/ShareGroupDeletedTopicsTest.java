package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deleted topic leaves the share groups' record 15 (ShareGroupStatePartitionMetadata) at once, as Kafka 4.3.1's
 * GroupMetadataManager.maybeCleanupShareGroupState rewrites it when the broker's metadata loses the topic: from the
 * initialized, initializing and deleting topics alike, written again so that a restart does not bring it back; a
 * group that lists none of the deleted topics writes nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupDeletedTopicsTest {

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private BrokerConfig config;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;
    private UUID queue;
    private UUID other;

    @BeforeEach
    void start() throws Exception {
        config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("queue", 2, 1, Map.of(), false);
        topics.create("other", 1, 1, Map.of(), false);
        topics.create("unread", 1, 1, Map.of(), false);
        queue = topics.get("queue").orElseThrow().id();
        other = topics.get("other").orElseThrow().id();
        open();
    }

    /** A coordinator replaying the offsets topic, told of deletions as a single node's is; initializations succeed. */
    private void open() {
        coordinator = new GroupCoordinator(config, topics, BrokerClock.manual(clock));
        coordinator.initializeShareStateWith((groupId, partitions, stateEpoch) -> CompletableFuture.completedFuture(null));
        topics.tellDeletionsTo(coordinator);
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private void heartbeat(String groupId, int epoch, List<String> subscribed) throws Exception {
        ShareGroupHeartbeat.Response response = coordinator.shareGroupHeartbeat(new ShareGroupHeartbeat.Request(
                groupId, "m", epoch, null, subscribed, "client", "/127.0.0.1")).get();
        assertThat(response.error()).isEqualTo(Errors.NONE);
    }

    private ShareGroupStatePartitions state(String groupId) {
        ShareGroup group = coordinator.shareGroup(groupId);
        synchronized (group) {
            return group.statePartitions;
        }
    }

    /** Waits for what the coordinator's thread has queued (the deletion's cleanup among it). */
    private void awaitCoordinatorThread() throws Exception {
        assertThat(coordinator.forgetDeletedTopicsInShareGroups(Set.of()).get()).isZero();
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    @Test
    void aDeletedTopicLeavesRecord15AtOnceAndForGood() throws Exception {
        heartbeat("g", 0, List.of("queue", "other"));
        awaitCoordinatorThread(); // the initialization's answer is written as initialized on the coordinator's thread
        assertThat(state("g").initialized).containsOnlyKeys(queue, other);

        assertThat(topics.delete("queue")).isEqualTo(Errors.NONE);
        awaitCoordinatorThread();

        assertThat(state("g").initialized).as("without a heartbeat").containsOnlyKeys(other);
        coordinator.close();
        open();
        assertThat(state("g").initialized).as("replayed from the record written again").containsOnlyKeys(other);
        assertThat(state("g").initializing).isEmpty();
    }

    @Test
    void initializingAndDeletingTopicsGoToo() throws Exception {
        heartbeat("g", 0, List.of("other"));
        awaitCoordinatorThread();
        // As AlterShareGroupOffsets and DeleteShareGroupOffsets leave them: one topic initializing, one deleting.
        ShareGroupStatePartitions state = state("g");
        synchronized (coordinator.shareGroup("g")) {
            state.startInitializing(queue, "queue", List.of(0, 1), 0);
            state.deleting.put(other, "other");
            state.initialized.remove(other);
        }

        assertThat(coordinator.forgetDeletedTopicsInShareGroups(Set.of(queue, other)).get()).isEqualTo(1);

        assertThat(state("g").initializing).isEmpty();
        assertThat(state("g").deleting).isEmpty();
        assertThat(state("g").initialized).isEmpty();
        coordinator.close();
        open();
        assertThat(state("g").initializing).isEmpty();
        assertThat(state("g").deleting).isEmpty();
    }

    @Test
    void aGroupThatListsNoneOfTheDeletedTopicsWritesNothing() throws Exception {
        heartbeat("g", 0, List.of("other"));
        awaitCoordinatorThread();
        long end = offsetsLog().logEndOffset();

        assertThat(topics.delete("unread")).isEqualTo(Errors.NONE);
        awaitCoordinatorThread();

        assertThat(offsetsLog().logEndOffset()).isEqualTo(end);
        assertThat(state("g").initialized).containsOnlyKeys(other);
    }
}
