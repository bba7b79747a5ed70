package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

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
        commit("both", -1, "", ORDERS_0, ORDERS_1, PAYMENTS_0);
        commit("orders-only", -1, "", ORDERS_0);
        String memberId = joinAndSync("subscribed", "orders");
        commit("subscribed", 1, memberId, ORDERS_0, PAYMENTS_0);
        long before = offsetsLog().logEndOffset();

        assertThat(topics.delete("orders")).isEqualTo(Errors.NONE);
        assertThat(coordinator.deleteCommitsOfTopics(Set.of()).get())
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

    /** Kafka's deletion writes the commits' tombstones only: the group goes at the next expiry round. */
    @Test
    void aGroupLeftWithoutCommitsStaysUntilTheNextExpiryRound() throws Exception {
        commit("orders-only", -1, "", ORDERS_0);

        assertThat(coordinator.deleteCommitsOfTopics(Set.of("orders")).get()).isEqualTo(1);
        assertThat(coordinator.group("orders-only")).isPresent();

        assertThat(coordinator.expireOffsets(System.currentTimeMillis()).get()).isZero();
        assertThat(coordinator.group("orders-only")).isEmpty();
    }

    @Test
    void consumerAndStreamsGroupsLoseTheirCommitsOfTheTopicAndStay() throws Exception {
        ConsumerGroupHeartbeat.Response consumer = coordinator.consumerGroupHeartbeat(
                new ConsumerGroupHeartbeat.Request("kip848", "m1", 0, null, null, 30_000, List.of("orders"), null,
                        null, Map.of(), "c", "h", (short) 1, topic -> true)).get();
        assertThat(consumer.error()).isEqualTo(Errors.NONE);
        commit("kip848", consumer.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);
        StreamsTopology topology = new StreamsTopology(0, new TreeMap<>(Map.of("0", new StreamsTopology.Subtopology(
                "0", List.of("orders"), List.of(), List.of(), List.of(), List.of()))));
        StreamsGroupHeartbeat.Response streams = coordinator.streamsGroupHeartbeat(new StreamsGroupHeartbeat.Request(
                "app", "m1", 0, 0, null, null, 30_000, topology, false, Map.of(), Map.of(), Map.of(), "p1", null,
                Map.of(), false, "c", "h", topic -> true)).get();
        assertThat(streams.error()).isEqualTo(Errors.NONE);
        commit("app", streams.memberEpoch(), "m1", ORDERS_0, PAYMENTS_0);

        assertThat(coordinator.deleteCommitsOfTopics(Set.of("orders")).get()).isEqualTo(2);

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

    private void commit(String groupId, int generation, String memberId, TopicPartition... partitions)
            throws Exception {
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            offsets.put(partition, new OffsetStore.CommittedOffset(5, -1, ""));
        }
        Map<TopicPartition, Errors> errors = coordinator.commitOffsets(
                new OffsetCommit(groupId, generation, memberId, null, offsets, (short) 9)).get();
        assertThat(errors.values()).containsOnly(Errors.NONE);
    }

    /** One consumer subscribed to {@code topic} joins the group (JoinGroup v3) and, as its leader, syncs. */
    private String joinAndSync(String groupId, String topic) throws Exception {
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        protocols.put("range", ByteBufUtil.getBytes(Unpooled.buffer().writeShort(0).writeInt(1)
                .writeShort(name.length).writeBytes(name).writeInt(-1)));
        Struct joined = coordinator.join(new JoinRequest(groupId, "", null, "client", "/127.0.0.1", 10_000, 30_000,
                "consumer", protocols, (short) 3)).get();
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        String memberId = joined.getString("MemberId");
        Struct synced = coordinator.sync(new SyncRequest(groupId, joined.getInt32("GenerationId"), memberId, null,
                null, null, Map.of(memberId, new byte[0]))).get();
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return memberId;
    }
}
