package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** What tests of a {@link GroupCoordinator} ask of it in place of the handlers: commits, and members joining. */
final class GroupCoordinatorCalls {

    private GroupCoordinatorCalls() {
    }

    /** An OffsetCommit v9 of offset 5 for each partition, which must succeed. */
    static void commit(GroupCoordinator coordinator, String groupId, int generation, String memberId,
                       TopicPartition... partitions) throws Exception {
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            offsets.put(partition, new OffsetStore.CommittedOffset(5, -1, ""));
        }
        Map<TopicPartition, Errors> errors = coordinator.commitOffsets(
                new OffsetCommit(groupId, generation, memberId, null, offsets, (short) 9)).get();
        assertThat(errors.values()).containsOnly(Errors.NONE);
    }

    /** One consumer subscribed to {@code topic} joins the classic group and, as its leader, syncs; returns its id. */
    static String joinAndSync(GroupCoordinator coordinator, String groupId, String topic) throws Exception {
        Struct joined = join(coordinator, groupId, topic).get();
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        String memberId = joined.getString("MemberId");
        Struct synced = coordinator.sync(new SyncRequest(groupId, joined.getInt32("GenerationId"), memberId, null,
                null, null, Map.of(memberId, new byte[0]))).get();
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return memberId;
    }

    /** A JoinGroup v3 (no MEMBER_ID_REQUIRED round) of a consumer subscribed to {@code topic} ("" for none). */
    static CompletableFuture<Struct> join(GroupCoordinator coordinator, String groupId, String topic) {
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        protocols.put("range", subscription(topic));
        return coordinator.join(new JoinRequest(groupId, "", null, "client", "/127.0.0.1",
                10_000, 30_000, "consumer", protocols, (short) 3));
    }

    /** ConsumerProtocolSubscription v0: the topics, then no user data. */
    private static byte[] subscription(String topic) {
        ByteBuf out = Unpooled.buffer().writeShort(0);
        if (topic.isEmpty()) {
            out.writeInt(0);
        } else {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            out.writeInt(1).writeShort(name.length).writeBytes(name);
        }
        return ByteBufUtil.getBytes(out.writeInt(-1));
    }

    /** Member {@code memberId} joins the KIP-848 consumer group subscribed to {@code topic}; must succeed. */
    static ConsumerGroupHeartbeat.Response joinConsumerGroup(GroupCoordinator coordinator, String groupId,
                                                             String memberId, String topic) throws Exception {
        ConsumerGroupHeartbeat.Response joined = coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request(
                groupId, memberId, 0, null, null, 30_000, List.of(topic), null, null, Map.of(), "c", "h",
                (short) 1, name -> true)).get();
        assertThat(joined.error()).isEqualTo(Errors.NONE);
        return joined;
    }

    /** Member "m1" joins the streams group whose one subtopology reads {@code inputTopic}; must succeed. */
    static StreamsGroupHeartbeat.Response joinStreamsGroup(GroupCoordinator coordinator, String groupId,
                                                           String inputTopic) throws Exception {
        StreamsTopology topology = new StreamsTopology(0, new TreeMap<>(Map.of("0", new StreamsTopology.Subtopology(
                "0", List.of(inputTopic), List.of(), List.of(), List.of(), List.of()))));
        StreamsGroupHeartbeat.Response joined = coordinator.streamsGroupHeartbeat(new StreamsGroupHeartbeat.Request(
                groupId, "m1", 0, 0, null, null, 30_000, topology, false, Map.of(), Map.of(), Map.of(), "p1", null,
                Map.of(), false, "c", "h", name -> true, null)).get();
        assertThat(joined.error()).isEqualTo(Errors.NONE);
        return joined;
    }
}
