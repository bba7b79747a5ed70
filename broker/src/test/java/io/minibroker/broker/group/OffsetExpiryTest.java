package io.minibroker.broker.group;

import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.message.Request;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.group.GroupCoordinatorCalls.commit;
import static io.minibroker.broker.group.GroupCoordinatorCalls.join;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinAndSync;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinConsumerGroup;
import static io.minibroker.broker.group.GroupCoordinatorCalls.joinStreamsGroup;
import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's offset expiry (offsets.retention.minutes) in each of the cases Kafka tells apart. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OffsetExpiryTest {

    private static final long RETENTION_MS = TimeUnit.DAYS.toMillis(7); // offsets.retention.minutes' default
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
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
        topics.create("orders", 1, 1, Map.of(), false);
        topics.create("payments", 1, 1, Map.of(), false);
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    /** A new coordinator replaying the offsets topic, as after a restart. */
    private void restart() throws Exception {
        coordinator.close();
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    @Test
    void aSimpleCommitExpiresRetentionAfterItWasMadeAndItsGroupGoesWithIt() throws Exception {
        long before = System.currentTimeMillis();
        commit(coordinator, "solo", -1, "", ORDERS_0);
        long after = System.currentTimeMillis();

        assertThat(expire(before + RETENTION_MS - 1)).isZero();
        assertThat(expire(after + RETENTION_MS)).isEqualTo(1);

        assertThat(coordinator.offsets().all("solo")).isEmpty();
        assertThat(coordinator.group("solo")).as("nothing left to list").isEmpty();
        restart();
        assertThat(coordinator.offsets().all("solo")).as("the tombstone was written").isEmpty();
    }

    /**
     * An OffsetCommit v2-v4's RetentionTimeMs fixes when its commits expire, sooner or later than
     * {@code offsets.retention.minutes} would, as Kafka's OffsetExpirationConditionImpl decides; kept in the record
     * (OffsetCommitValue v1), so a restart keeps it.
     */
    @Test
    void aCommitsOwnRetentionTimeDecidesItsExpiryAcrossARestart() throws Exception {
        long before = System.currentTimeMillis();
        commitV2(coordinator, "short", 1_000);
        commitV2(coordinator, "long", 10 * RETENTION_MS);
        long after = System.currentTimeMillis();
        restart();

        assertThat(expire(before + 1_000 - 1)).isZero();
        assertThat(expire(after + 1_000)).isEqualTo(1);
        assertThat(coordinator.offsets().all("short")).isEmpty();
        assertThat(expire(after + RETENTION_MS + 1)).as("its own time is later than the broker's").isZero();
        assertThat(coordinator.offsets().all("long")).containsOnlyKeys(ORDERS_0);
        assertThat(expire(after + 10 * RETENTION_MS)).isEqualTo(1);
    }

    /** The OffsetCommit handler takes v2's RetentionTimeMs, and a v10's topic id, into the commit it stores. */
    @Test
    void theHandlerKeepsAV2RetentionTimeAndAV10TopicId() throws Exception {
        OffsetCommitHandler handler = new OffsetCommitHandler(coordinator, topics);
        OffsetCommitRequestView v2 = new OffsetCommitRequestView().groupId("old").generationIdOrMemberEpoch(-1)
                .memberId("").retentionTimeMs(60_000);
        v2.addTopic().name("orders").addPartition().partitionIndex(0).committedOffset(5).committedMetadata("");
        long before = System.currentTimeMillis();
        handler.handle(TestContexts.on("PLAINTEXT"), new Request(new RequestHeader(ApiKey.OFFSET_COMMIT.id(),
                (short) 2, 1, "test"), ApiKey.OFFSET_COMMIT, v2.struct())).toCompletableFuture().join();
        long after = System.currentTimeMillis();
        assertThat(coordinator.offsets().all("old").get(ORDERS_0).expireTimestamp())
                .isBetween(before + 60_000, after + 60_000);

        UUID ordersId = topics.get("orders").orElseThrow().id();
        OffsetCommitRequestView v10 = new OffsetCommitRequestView().groupId("new").generationIdOrMemberEpoch(-1)
                .memberId("");
        v10.addTopic().topicId(ordersId).addPartition().partitionIndex(0).committedOffset(6).committedMetadata("");
        handler.handle(TestContexts.on("PLAINTEXT"), new Request(new RequestHeader(ApiKey.OFFSET_COMMIT.id(),
                (short) 10, 2, "test"), ApiKey.OFFSET_COMMIT, v10.struct())).toCompletableFuture().join();
        assertThat(coordinator.offsets().all("new").get(ORDERS_0)).isEqualTo(new OffsetStore.CommittedOffset(6, -1,
                "", ordersId, OffsetStore.CommittedOffset.NO_EXPIRY));
    }

    private static void commitV2(GroupCoordinator coordinator, String groupId, long retentionTimeMs)
            throws Exception {
        Map<TopicPartition, Errors> errors = coordinator.commitOffsets(new OffsetCommit(groupId, -1, "", null,
                Map.of(ORDERS_0, new OffsetStore.CommittedOffset(5, -1, "")), (short) 2, null, retentionTimeMs)).get();
        assertThat(errors.values()).containsOnly(Errors.NONE);
    }

    @Test
    void aStableConsumerGroupLosesOnlyTheOffsetsOfTopicsNoMemberSubscribesTo() throws Exception {
        String memberId = joinAndSync(coordinator, "stable", "orders");
        commit(coordinator, "stable", 1, memberId, ORDERS_0, PAYMENTS_0);

        assertThat(expire(System.currentTimeMillis() + RETENTION_MS + 1)).isEqualTo(1);

        assertThat(coordinator.offsets().all("stable")).containsOnlyKeys(ORDERS_0);
        assertThat(coordinator.group("stable")).isPresent();
    }

    @Test
    void anEmptyGroupsOffsetsExpireRetentionAfterItBecameEmptyHoweverRecentThenTheGroupIsDeleted() throws Exception {
        long emptySince = System.currentTimeMillis() - RETENTION_MS - 1;
        new OffsetsTopic(topics, 1, CoordinatorAppender.SINGLE_NODE, true, BrokerClock.system())
                .writeGroup("idle", new GroupMetadataRecord.StoredGroup("consumer", 4, null, null, emptySince,
                        List.of())).get();
        restart();
        commit(coordinator, "idle", -1, "", ORDERS_0); // a tool's commit to the Empty group, made just now

        int batchesBefore = offsetsTopicBatches().size();

        assertThat(expire(System.currentTimeMillis())).as("timed from when the group became Empty").isEqualTo(1);

        assertThat(coordinator.group("idle")).isEmpty();
        List<Integer> batches = offsetsTopicBatches();
        assertThat(batches).as("the commit's tombstone and the group's in one batch").hasSize(batchesBefore + 1);
        assertThat(batches.get(batches.size() - 1)).isEqualTo(2);
        restart();
        assertThat(coordinator.group("idle")).as("its metadata tombstoned").isEmpty();
    }

    @Test
    void aGroupRebalancingKeepsItsOffsets() throws Exception {
        joinAndSync(coordinator, "moving", "orders");
        commit(coordinator, "moving", 1, coordinator.group("moving").orElseThrow().leaderId, PAYMENTS_0);
        join(coordinator, "moving", ""); // a second member: the group prepares a rebalance

        assertThat(expire(System.currentTimeMillis() + RETENTION_MS + 1)).isZero();
        assertThat(coordinator.offsets().all("moving")).containsOnlyKeys(PAYMENTS_0);
    }

    /**
     * A string longer than an int16 length can say cannot be stored in OffsetCommitValue: refused as too large
     * whatever offset.metadata.max.bytes allows, while one just short of it is stored and read back whole.
     */
    @Test
    void metadataTooLongForTheRecordIsRefusedHoweverHighTheLimit() throws Exception {
        coordinator.close();
        config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1", "offset.metadata.max.bytes", "100000"));
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
        String fits = "\u00e9".repeat(Short.MAX_VALUE / 2); // 2 UTF-8 bytes each: 32766 bytes
        String tooLong = "\u00e9".repeat(Short.MAX_VALUE / 2 + 1); // 32768 bytes, in 16384 chars

        assertThat(commitMetadata("meta", ORDERS_0, tooLong)).isEqualTo(Errors.OFFSET_METADATA_TOO_LARGE);
        assertThat(commitMetadata("meta", PAYMENTS_0, fits)).isEqualTo(Errors.NONE);

        restart();
        assertThat(coordinator.offsets().all("meta")).containsOnlyKeys(PAYMENTS_0);
        assertThat(coordinator.offsets().all("meta").get(PAYMENTS_0).metadata()).isEqualTo(fits);
    }

    private Errors commitMetadata(String groupId, TopicPartition partition, String metadata) throws Exception {
        return coordinator.commitOffsets(new OffsetCommit(groupId, -1, "", null,
                Map.of(partition, new OffsetStore.CommittedOffset(5, -1, metadata)), (short) 9)).get().get(partition);
    }

    /** The record count of each batch in the offsets topic. */
    private List<Integer> offsetsTopicBatches() {
        PartitionLog log = topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
        List<Integer> counts = new ArrayList<>();
        ByteBuf read = log.read(0, 1 << 20, true, log.logEndOffset()).readInto(ByteBufAllocator.DEFAULT);
        try {
            RecordBatches batches = RecordBatches.of(read);
            while (batches.hasNext()) {
                counts.add(batches.next().recordCount());
            }
        } finally {
            read.release();
        }
        return counts;
    }

    @Test
    void aConsumerProtocolGroupLosesTheOffsetsOfTopicsNoMemberSubscribesToAndAllOnceEmpty() throws Exception {
        ConsumerGroupHeartbeat.Response joined = joinConsumerGroup(coordinator, "kip848", "m1", "orders");
        commit(coordinator, "kip848", joined.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);
        long expiredAt = System.currentTimeMillis() + RETENTION_MS + 1;
        assertThat(expire(expiredAt)).isEqualTo(1);
        assertThat(coordinator.offsets().all("kip848")).containsOnlyKeys(ORDERS_0);

        ConsumerGroupHeartbeat.Response left = coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request(
                "kip848", "m1", -1, null, null, -1, null, null, null, null, "c", "h", (short) 1, topic -> true)).get();
        assertThat(left.error()).isEqualTo(Errors.NONE);
        int batchesBefore = offsetsTopicBatches().size();
        assertThat(expire(expiredAt)).isEqualTo(1);
        assertThat(coordinator.offsets().all("kip848")).isEmpty();
        assertThat(coordinator.consumerGroup("kip848")).as("empty, its commits gone: deleted").isNull();
        assertThat(offsetsTopicBatches()).as("the commit's tombstone and the group's in one batch")
                .hasSize(batchesBefore + 1);

        // Without members and without any commit, a group goes at the next round, as Kafka's does.
        joinConsumerGroup(coordinator, "idle", "m1", "orders");
        assertThat(coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request("idle", "m1", -1, null, null,
                -1, null, null, null, null, "c", "h", (short) 1, topic -> true)).get().error()).isEqualTo(Errors.NONE);
        assertThat(expire(System.currentTimeMillis())).isZero();
        assertThat(coordinator.consumerGroup("idle")).isNull();

        restart();
        assertThat(coordinator.consumerGroup("kip848")).as("its records tombstoned").isNull();
        assertThat(coordinator.consumerGroup("idle")).isNull();
    }

    /**
     * As Kafka's StreamsGroup: while it has members, its topology's input topics' commits neither expire nor may be
     * deleted (GROUP_SUBSCRIBED_TO_TOPIC); other topics' do and may; once it is empty, all expire.
     */
    @Test
    void aStreamsGroupKeepsItsInputTopicsOffsetsOnlyWhileItHasMembers() throws Exception {
        StreamsGroupHeartbeat.Response joined = joinStreamsGroup(coordinator, "app", "orders");
        commit(coordinator, "app", joined.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);

        OffsetDeletion deleted = coordinator.deleteOffsets("app", List.of(ORDERS_0, PAYMENTS_0)).get();
        assertThat(deleted.error()).isEqualTo(Errors.NONE);
        assertThat(deleted.partitions()).containsEntry(ORDERS_0, Errors.GROUP_SUBSCRIBED_TO_TOPIC)
                .containsEntry(PAYMENTS_0, Errors.NONE);
        assertThat(coordinator.offsets().all("app")).containsOnlyKeys(ORDERS_0);

        commit(coordinator, "app", joined.memberEpoch(), "m1", PAYMENTS_0);
        long expiredAt = System.currentTimeMillis() + RETENTION_MS + 1;
        assertThat(expire(expiredAt)).isEqualTo(1);
        assertThat(coordinator.offsets().all("app")).containsOnlyKeys(ORDERS_0);

        StreamsGroupHeartbeat.Response left = coordinator.streamsGroupHeartbeat(new StreamsGroupHeartbeat.Request(
                "app", "m1", -1, 0, null, null, -1, null, false, null, null, null, null, null, null, false, "c", "h",
                topic -> true, null)).get();
        assertThat(left.error()).isEqualTo(Errors.NONE);
        int batchesBefore = offsetsTopicBatches().size();
        assertThat(expire(expiredAt)).isEqualTo(1);
        assertThat(coordinator.offsets().all("app")).isEmpty();
        assertThat(coordinator.streamsGroup("app")).as("empty, its commits gone: deleted").isNull();
        assertThat(offsetsTopicBatches()).as("the commit's tombstone and the group's in one batch")
                .hasSize(batchesBefore + 1);
        restart();
        assertThat(coordinator.streamsGroup("app")).as("its records tombstoned").isNull();
    }

    private int expire(long now) throws Exception {
        return coordinator.expireOffsets(now).get();
    }
}
