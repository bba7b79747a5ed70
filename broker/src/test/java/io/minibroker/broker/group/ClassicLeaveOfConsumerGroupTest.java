package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A classic LeaveGroup of a classic-protocol member of a KIP-848 consumer group is answered once the records of
 * its removal are written, as Kafka's classicGroupLeaveToConsumerGroup is a coordinator write: while the offsets
 * topic's log is held, the leave is not answered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassicLeaveOfConsumerGroupTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1", "group.initial.rebalance.delay.ms", "0"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 2, 1, Map.of(), false);
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    @Test
    void theLeaveIsAnsweredOnceTheRemovalIsWritten() throws Exception {
        ConsumerGroupHeartbeat.Response joined = coordinator.consumerGroupHeartbeat(new ConsumerGroupHeartbeat.Request(
                "mixed", "m1", 0, null, null, 30_000, List.of("orders"), null, null, Map.of(), "c", "h",
                (short) 1, topic -> true)).get();
        assertThat(joined.error()).isEqualTo(Errors.NONE);
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        protocols.put("range", subscription("orders"));
        Struct classic = coordinator.join(new JoinRequest("mixed", "", null, "client", "/127.0.0.1", 10_000, 30_000,
                "consumer", protocols, (short) 3)).get();
        assertThat(classic.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        String memberId = classic.getString("MemberId");
        long endBefore = offsetsLog().logEndOffset();

        CompletableFuture<Errors> leave;
        synchronized (offsetsLog()) { // the coordinator's write of the removal waits for the log
            leave = coordinator.leave("mixed", memberId, null);
            awaitBlocked("group-coordinator");
            assertThat(leave).isNotDone();
        }

        assertThat(leave.get()).isEqualTo(Errors.NONE);
        assertThat(offsetsLog().logEndOffset()).isGreaterThan(endBefore);
    }

    private static void awaitBlocked(String threadName) throws InterruptedException {
        while (Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals(threadName) && t.getState() == Thread.State.BLOCKED)) {
            Thread.sleep(10);
        }
    }

    /** ConsumerProtocolSubscription v0: the topic, then no user data. */
    private static byte[] subscription(String topic) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        ByteBuf out = Unpooled.buffer().writeShort(0).writeInt(1).writeShort(name.length).writeBytes(name);
        return ByteBufUtil.getBytes(out.writeInt(-1));
    }
}
