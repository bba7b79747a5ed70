package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.share.SharePartitionKey;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deleted topic's share state goes with it, as Kafka 4.3.1's ShareCoordinatorShard.maybeCleanupShareState deletes
 * it when the broker's metadata loses the topic: every group's share partitions of the topic get a tombstone in
 * {@code __share_group_state} (one batch per partition of it), so that the state is gone after a restart too, and a
 * later read finds it never initialized; other topics' state stays.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareCoordinatorDeletedTopicsTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private ShareCoordinator coordinator;
    private SharePartitionKey data0;
    private SharePartitionKey data1;
    private SharePartitionKey otherGroupData0;
    private SharePartitionKey kept0;

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "share.coordinator.state.topic.num.partitions", "3")), Clock.systemUTC());
        topics.create("data", 2, 1, Map.of(), false);
        topics.create("kept", 1, 1, Map.of(), false);
        UUID data = topics.get("data").orElseThrow().id();
        UUID kept = topics.get("kept").orElseThrow().id();
        data0 = new SharePartitionKey("g", data, 0);
        data1 = new SharePartitionKey("g", data, 1);
        otherGroupData0 = new SharePartitionKey("h", data, 0);
        kept0 = new SharePartitionKey("g", kept, 0);
        open();
        for (SharePartitionKey key : List.of(data0, data1, otherGroupData0, kept0)) {
            assertThat(coordinator.initialize(key, 0, 5).get()).isEqualTo(Errors.NONE);
        }
    }

    /** A single node's share coordinator, told of deletions as the broker tells it. */
    private void open() {
        coordinator = new ShareCoordinator(topics, PartitionLeadership.SINGLE_NODE, CoordinatorAppender.SINGLE_NODE,
                BrokerClock.manual(new ManualClock()), true, Long.MAX_VALUE, "share-coordinator-deleted-topics-test");
        topics.tellDeletionsTo(coordinator);
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private Errors read(SharePartitionKey key) throws Exception {
        return coordinator.read(key, 1).get().error();
    }

    /** The tombstones in {@code __share_group_state}, every partition of it. */
    private List<SharePartitionKey> tombstones() {
        List<SharePartitionKey> tombstones = new ArrayList<>();
        var stateTopic = topics.get(ShareCoordinator.NAME).orElseThrow();
        for (int partition = 0; partition < stateTopic.partitions(); partition++) {
            LogReplay.replay(topics.partitionLog(stateTopic, partition).orElseThrow(), (batch, record) -> {
                if (record.value() == null) {
                    tombstones.add(ShareStateRecords.readKey(record.key()));
                }
            });
        }
        return tombstones;
    }

    @Test
    void aDeletedTopicsShareStateIsTombstonedForEveryGroup() throws Exception {
        assertThat(topics.delete("data")).isEqualTo(Errors.NONE);
        assertThat(coordinator.deleteStateOfTopics(Set.of()).get())
                .as("queued on the coordinator's thread after the deletion's: done once that is").isZero();

        assertThat(tombstones()).containsExactlyInAnyOrder(data0, data1, otherGroupData0);
        assertThat(read(data0)).as("never initialized now, not a state of a topic gone")
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(read(otherGroupData0)).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(read(kept0)).isEqualTo(Errors.NONE);

        coordinator.close();
        open();
        assertThat(read(data1)).as("after a restart too").isEqualTo(Errors.INVALID_REQUEST);
        assertThat(read(kept0)).isEqualTo(Errors.NONE);
    }

    @Test
    void aTopicWithNoShareStateWritesNothing() throws Exception {
        topics.create("unshared", 1, 1, Map.of(), false);
        UUID unshared = topics.get("unshared").orElseThrow().id();

        assertThat(coordinator.deleteStateOfTopics(Set.of(unshared)).get()).isZero();
        assertThat(tombstones()).isEmpty();
        assertThat(coordinator.deleteStateOfTopics(Set.of(data0.topicId())).get()).isEqualTo(3);
        assertThat(coordinator.deleteStateOfTopics(Set.of(data0.topicId())).get()).as("already gone").isZero();
    }
}
