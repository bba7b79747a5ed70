package io.minibroker.broker.produce;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.SystemClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first produce of a leader epoch writes {@code leader-epoch-checkpoint} on the disk executor, not on the
 * thread that appended (an event loop, in the broker), and is acknowledged only once the epoch is on disk; later
 * produces of the epoch are acknowledged at once; a reopened log reads its epochs from the checkpoint.
 */
class ProduceLeaderEpochCheckpointTest {

    private static final RequestContext CONTEXT = TestContexts.on("PLAINTEXT");

    @TempDir
    Path logDir;

    private final HeldDisk disk = new HeldDisk();
    private final Purgatory<DelayedProduce> producePurgatory = ProduceHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private final Purgatory<DelayedFetch> fetchPurgatory = FetchHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private BrokerConfig config;
    private TopicRegistry topics;
    private ProduceHandler produce;
    private PartitionLog log;

    @BeforeEach
    void start() throws Exception {
        config = BrokerConfig.of(Map.of("log.dirs", logDir.toString()));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("epochs", 1, 1, Map.of(), false);
        log = topics.partitionLog(topics.get("epochs").orElseThrow(), 0).orElseThrow();
        produce = new ProduceHandler(topics, config, producePurgatory, fetchPurgatory, disk,
                PartitionLeadership.SINGLE_NODE, new BrokerTopicMetrics(new SimpleMeterRegistry()), null);
    }

    @AfterEach
    void stop() throws Exception {
        producePurgatory.close();
        fetchPurgatory.close();
        topics.close();
    }

    @Test
    void theAckOfAnEpochsFirstProduceWaitsForItsCheckpointWrittenOffTheAppendingThread() throws Exception {
        Path checkpoint = log.dir().resolve("leader-epoch-checkpoint");
        CompletableFuture<Struct> first = produce();

        assertThat(log.logEndOffset()).as("appended at once").isEqualTo(1);
        assertThat(log.leaderEpochs()).as("the epoch is known at once").containsExactly(Map.entry(0, 0L));
        assertThat(Files.readString(checkpoint)).as("not written on the appending thread: empty, as created")
                .isEmpty();
        assertThat(first).as("the ack waits for the checkpoint").isNotDone();

        assertThat(disk.runHeld()).isEqualTo(1);

        assertThat(Files.readString(checkpoint)).isEqualTo("0\n1\n0 0\n");
        assertThat(errorOf(first)).isEqualTo(Errors.NONE);

        CompletableFuture<Struct> second = produce();
        assertThat(second).as("the epoch is on disk already: nothing to wait for").isDone();
        assertThat(disk.runHeld()).isZero();

        topics.close();
        topics = TopicRegistry.open(config, Clock.systemUTC());
        PartitionLog reopened = topics.partitionLog(topics.get("epochs").orElseThrow(), 0).orElseThrow();
        assertThat(reopened.leaderEpochs()).containsExactly(Map.entry(0, 0L));
    }

    private CompletableFuture<Struct> produce() {
        ByteBuf records = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                System.currentTimeMillis())
                .append(System.currentTimeMillis(), null, "v".getBytes(StandardCharsets.UTF_8), List.of())
                .build();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) 1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", "epochs")
                .addElement("PartitionData").set("Index", 0).set("Records", records);
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.PRODUCE.id(), (short) 9, 1, "test"), body);
        Request request = MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
        return produce.handle(CONTEXT, request).toCompletableFuture();
    }

    private static Errors errorOf(CompletableFuture<Struct> ack) throws Exception {
        Struct partition = ack.get().getStructs("Responses").get(0).getStructs("PartitionResponses").get(0);
        return Errors.forCode(partition.getInt16("ErrorCode"));
    }
}
