package io.minibroker.broker.group;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coordinator's offset writes seen from inside: how they reach {@code __consumer_offsets}, on which thread,
 * and what a DeleteGroups racing them leaves behind; and a classic member's leave of a consumer group, answered
 * after its write. The offsets topic has one partition, so every group's
 * records land in the same log.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupOffsetsTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "offsets.topic.num.partitions", "1", "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 3, 1, Map.of(), false);
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private static OffsetCommit simpleCommit(String groupId, long offset, int... partitions) {
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        for (int partition : partitions) {
            offsets.put(new TopicPartition("orders", partition), new OffsetStore.CommittedOffset(offset, -1, ""));
        }
        return new OffsetCommit(groupId, -1, "", null, offsets, (short) 9);
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    /** The record count of each batch in the offsets topic, in order. */
    private List<Integer> batchSizes() {
        PartitionLog log = offsetsLog();
        LogReadResult read = log.read(0, 1 << 20, true, log.logEndOffset());
        ByteBuf buffer = read.readInto(ByteBufAllocator.DEFAULT);
        try {
            RecordBatches batches = RecordBatches.of(buffer);
            List<Integer> sizes = new ArrayList<>();
            while (batches.hasNext()) {
                sizes.add(batches.next().recordCount());
            }
            return sizes;
        } finally {
            buffer.release();
        }
    }

    @Test
    void aRequestsOffsetsAreWrittenAsOneBatch() throws Exception {
        Map<TopicPartition, Errors> errors = coordinator.commitOffsets(simpleCommit("batched", 7, 0, 1, 2)).get();

        assertThat(errors.values()).containsOnly(Errors.NONE).hasSize(3);
        assertThat(batchSizes()).containsExactly(3);
        assertThat(coordinator.offsets().all("batched")).hasSize(3);
    }

    @Test
    void theFirstCommitCreatesTheOffsetsTopicWithKafkasConfigs() throws Exception {
        coordinator.commitOffsets(simpleCommit("creates", 1, 0)).get();

        assertThat(topics.overrides(OffsetsTopic.NAME).orElseThrow()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cleanup.policy", "compact",
                "compression.type", "producer",
                "segment.bytes", "104857600")); // offsets.topic.segment.bytes' default, not log.segment.bytes'
    }

    @Test
    void theAppendRunsOnTheCoordinatorThreadNotTheCallers() throws Exception {
        coordinator.commitOffsets(simpleCommit("threads", 1, 0)).get();
        ClassicGroup group = coordinator.group("threads").orElseThrow();

        CompletableFuture<Map<TopicPartition, Errors>> commit;
        CompletableFuture<String> completedOn;
        synchronized (group) {
            // A caller that did the work itself would finish here, its own lock being reentrant.
            commit = coordinator.commitOffsets(simpleCommit("threads", 2, 0));
            completedOn = commit.thenApply(errors -> Thread.currentThread().getName());
            assertThat(commit).isNotDone();
        }

        // Waiting on the commit itself could run the dependent stage on this thread: wait on the stage instead.
        assertThat(completedOn.get()).isEqualTo("group-coordinator");
        assertThat(commit.get()).containsEntry(new TopicPartition("orders", 0), Errors.NONE);
    }

    @Test
    void aDeleteRacingACommitLeavesNoOffsetsOfTheDeletedGroup() throws Exception {
        coordinator.commitOffsets(simpleCommit("bystander", 1, 0)).get(); // creates the offsets topic
        coordinator.getOrCreate("raced"); // Empty and without offsets

        CompletableFuture<Map<TopicPartition, Errors>> commit;
        CompletableFuture<Errors> delete;
        synchronized (offsetsLog()) {
            // The commit gets past its checks and waits for the log; the delete comes while it waits.
            commit = coordinator.commitOffsets(simpleCommit("raced", 5, 1));
            awaitBlocked("group-coordinator");
            assertThat(commit).isNotDone();
            delete = coordinator.delete("raced");
        }

        assertThat(commit.get().values()).containsOnly(Errors.NONE);
        assertThat(delete.get()).isEqualTo(Errors.NONE);
        assertThat(coordinator.group("raced")).isEmpty();
        assertThat(coordinator.offsets().all("raced")).isEmpty();
    }

    /**
     * A classic LeaveGroup of a classic-protocol member of a KIP-848 consumer group is answered once the records of
     * its removal are written, as Kafka's classicGroupLeaveToConsumerGroup is a coordinator write.
     */
    @Test
    void aClassicLeaveOfAConsumerGroupIsAnsweredOnceItsRemovalIsWritten() throws Exception {
        ConsumerGroupHeartbeat.Response joined = coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request(
                "mixed", "m1", 0, null, null, 30_000, List.of("orders"), null, null, Map.of(), "c", "h",
                (short) 1, topic -> true)).get();
        assertThat(joined.error()).isEqualTo(Errors.NONE);
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        protocols.put("range", subscription("orders"));
        Struct classic = coordinator.join(new JoinRequest("mixed", "", null, "client", "/127.0.0.1", 10_000, 30_000,
                "consumer", protocols, (short) 3)).get();
        assertThat(classic.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        long endBefore = offsetsLog().logEndOffset();

        CompletableFuture<List<Errors>> leave;
        synchronized (offsetsLog()) { // the coordinator's write of the removal waits for the log
            leave = coordinator.leave("mixed", List.of(new LeavingMember(classic.getString("MemberId"), null)));
            awaitBlocked("group-coordinator");
            assertThat(leave).isNotDone();
        }

        assertThat(leave.get()).containsExactly(Errors.NONE);
        assertThat(offsetsLog().logEndOffset()).isGreaterThan(endBefore);
    }

    /**
     * A batched LeaveGroup of classic-protocol members of a consumer group is one coordinator write, as Kafka's
     * classicGroupLeaveToConsumerGroup: the group epoch moves on once for all of them, and each member named gets
     * its own error.
     */
    @Test
    void aBatchedClassicLeaveOfAConsumerGroupIsOneWrite() throws Exception {
        assertThat(coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request("mixed", "m1", 0, null, null,
                30_000, List.of("orders"), null, null, Map.of(), "c", "h", (short) 1, topic -> true)).get().error())
                .isEqualTo(Errors.NONE);
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        protocols.put("range", subscription("orders"));
        List<LeavingMember> leaving = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Struct classic = coordinator.join(new JoinRequest("mixed", "", null, "client", "/127.0.0.1", 10_000,
                    30_000, "consumer", protocols, (short) 3)).get();
            assertThat(classic.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            leaving.add(new LeavingMember(classic.getString("MemberId"), null));
        }
        leaving.add(new LeavingMember("unknown", null));
        ConsumerGroup group = coordinator.consumerGroup("mixed");
        int epochBefore;
        synchronized (group) {
            epochBefore = group.groupEpoch;
        }

        assertThat(coordinator.leave("mixed", leaving).get())
                .containsExactly(Errors.NONE, Errors.NONE, Errors.UNKNOWN_MEMBER_ID);
        synchronized (group) {
            assertThat(group.groupEpoch).as("one write, one new epoch").isEqualTo(epochBefore + 1);
            assertThat(group.members).containsOnlyKeys("m1");
        }
    }

    /** ConsumerProtocolSubscription v0: the topic, then no user data. */
    private static byte[] subscription(String topic) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        return ByteBufUtil.getBytes(Unpooled.buffer().writeShort(0).writeInt(1).writeShort(name.length)
                .writeBytes(name).writeInt(-1));
    }

    private static void awaitBlocked(String threadName) throws InterruptedException {
        while (Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals(threadName) && t.getState() == Thread.State.BLOCKED)) {
            Thread.sleep(10);
        }
    }
}
