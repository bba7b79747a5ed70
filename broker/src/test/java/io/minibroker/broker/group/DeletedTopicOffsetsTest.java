package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.netty.buffer.ByteBuf;
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

import static io.minibroker.broker.group.GroupCoordinatorCalls.commit;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinAndSync;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinConsumerGroup;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinStreamsGroup;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deleted topic's commits on a single node, as Kafka's OffsetMetadataManager.onTopicsDeleted deletes them: every
 * group's, whatever its type and whatever its members subscribe to, with tombstones in {@code __consumer_offsets}
 * (OffsetCommitKey, no value), so that a restart does not bring them back; nothing else of a group changes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeletedTopicOffsetsTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    /** The id the tests' deletions name; a commit that recorded no id (before OffsetCommit v10) is any id's. */
    private static final UUID ORDERS_ID = new UUID(0, 1);
    private static final TopicPartition PAYMENTS_0 = new TopicPartition("payments", 0);

    @TempDir
    Path logDir;
    private BrokerConfig config;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1", "group.initial.rebalance.delay.ms", "0"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 2, 1, Map.of(), false);
        topics.create("payments", 1, 1, Map.of(), false);
        open();
    }

    /** A coordinator replaying the offsets topic, told of deletions as a single node's is. */
    private void open() {
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
        topics.tellDeletionsTo(coordinator);
    }

    private void restart() throws Exception {
        coordinator.close();
        open();
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    @Test
    void deletingATopicDeletesEveryGroupsCommitsOfItWithTombstones() throws Exception {
        commit(coordinator, "both", -1, "", ORDERS_0, ORDERS_1, PAYMENTS_0);
        commit(coordinator, "orders-only", -1, "", ORDERS_0);
        String memberId = joinAndSync(coordinator, "subscribed", "orders");
        commit(coordinator, "subscribed", 1, memberId, ORDERS_0, PAYMENTS_0);
        long before = offsetsLog().logEndOffset();

        assertThat(topics.delete("orders")).isEqualTo(Errors.NONE);
        assertThat(coordinator.deleteCommitsOfTopics(Map.of()).get())
                .as("queued on the coordinator's thread after the deletion's: done once that is").isZero();

        assertOnlyPaymentsLeft();
        assertThat(tombstonesFrom(before)).containsExactlyInAnyOrder("both/orders-0", "both/orders-1",
                "orders-only/orders-0", "subscribed/orders-0");
        restart();
        assertOnlyPaymentsLeft();
    }

    private void assertOnlyPaymentsLeft() {
        assertThat(coordinator.offsets().all("both")).containsOnlyKeys(PAYMENTS_0);
        assertThat(coordinator.offsets().all("orders-only")).isEmpty();
        assertThat(coordinator.offsets().all("subscribed")).as("whatever its member subscribes to, as in Kafka")
                .containsOnlyKeys(PAYMENTS_0);
    }

    /**
     * As Kafka's OffsetMetadataManager.onTopicsDeleted: a commit that recorded the id of the topic (OffsetCommit
     * v10) goes only with that topic, not with an older one of the same name deleted after it was created again.
     */
    @Test
    void aCommitThatRecordedAnotherTopicIdIsNotTheDeletedTopics() throws Exception {
        UUID newer = new UUID(0, 2);
        Map<TopicPartition, Errors> errors = coordinator.commitOffsets(new OffsetCommit("by-id", -1, "", null,
                Map.of(ORDERS_0, new OffsetStore.CommittedOffset(5, -1, "", newer,
                        OffsetStore.CommittedOffset.NO_EXPIRY)), (short) 10)).get();
        assertThat(errors.values()).containsOnly(Errors.NONE);

        assertThat(coordinator.deleteCommitsOfTopics(Map.of("orders", ORDERS_ID)).get()).isZero();
        assertThat(coordinator.offsets().all("by-id")).containsOnlyKeys(ORDERS_0);
        assertThat(coordinator.deleteCommitsOfTopics(Map.of("orders", newer)).get()).isEqualTo(1);
        assertThat(coordinator.offsets().all("by-id")).isEmpty();
    }

    /** Kafka's deletion writes the commits' tombstones only: the group goes at the next expiry round. */
    @Test
    void aGroupLeftWithoutCommitsStaysUntilTheNextExpiryRound() throws Exception {
        commit(coordinator, "orders-only", -1, "", ORDERS_0);

        assertThat(coordinator.deleteCommitsOfTopics(Map.of("orders", ORDERS_ID)).get()).isEqualTo(1);
        assertThat(coordinator.group("orders-only")).isPresent();

        assertThat(coordinator.expireOffsets(System.currentTimeMillis()).get()).isZero();
        assertThat(coordinator.group("orders-only")).isEmpty();
    }

    @Test
    void consumerAndStreamsGroupsLoseTheirCommitsOfTheTopicAndStay() throws Exception {
        ConsumerGroupHeartbeat.Response consumer = joinConsumerGroup(coordinator, "kip848", "m1", "orders");
        commit(coordinator, "kip848", consumer.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);
        StreamsGroupHeartbeat.Response streams = joinStreamsGroup(coordinator, "app", "orders");
        commit(coordinator, "app", streams.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);

        assertThat(coordinator.deleteCommitsOfTopics(Map.of("orders", ORDERS_ID)).get()).isEqualTo(2);

        assertThat(coordinator.offsets().all("kip848")).containsOnlyKeys(PAYMENTS_0);
        assertThat(coordinator.offsets().all("app")).containsOnlyKeys(PAYMENTS_0);
        assertThat(coordinator.consumerGroup("kip848")).isNotNull();
        assertThat(coordinator.streamsGroup("app")).isNotNull();
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    /** The tombstones in the offsets topic from {@code offset} on, each as "group/topic-partition". */
    private List<String> tombstonesFrom(long offset) {
        List<String> tombstones = new ArrayList<>();
        LogReplay.replay(offsetsLog(), (batch, record) -> {
            if (record.offset() >= offset && record.value() == null) {
                ByteBuf key = record.key();
                assertThat(key.readShort()).as("OffsetCommitKey").isEqualTo((short) 1);
                tombstones.add(GroupMetadataRecord.readString(key) + "/" + GroupMetadataRecord.readString(key) + "-"
                        + key.readInt());
            }
        });
        return tombstones;
    }
}
