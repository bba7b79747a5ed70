package io.minibroker.broker.produce;

import io.minibroker.broker.feature.FinalizedFeatures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.ApiVersionsHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.network.RawClient;
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
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code flush.messages=1} a produce is acknowledged only after its fsync, and the fsync does not run on the
 * thread that handled the produce (an event loop, in the broker), which meanwhile serves other requests.
 */
class ProduceFsyncTest {

    private static final RequestContext CONTEXT = TestContexts.on("PLAINTEXT");

    @TempDir
    Path logDir;

    private final HeldDisk disk = new HeldDisk();
    private final Purgatory<DelayedProduce> producePurgatory = ProduceHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private final Purgatory<DelayedFetch> fetchPurgatory = FetchHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private TopicRegistry topics;
    private ProduceHandler produce;
    private PartitionLog log;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dirs", logDir.toString(),
                "log.flush.interval.messages", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("durable", 1, 1, Map.of(), false);
        log = topics.partitionLog(topics.get("durable").orElseThrow(), 0).orElseThrow();
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
    void theAckWaitsForTheFsyncWhileTheHandlingThreadServesOthers() throws Exception {
        for (short acks : new short[] {1, -1}) {
            long offset = log.logEndOffset();
            CompletableFuture<Struct> ack = handle(produce, produceRequest(acks));

            assertThat(log.logEndOffset()).as("appended at once").isEqualTo(offset + 1);
            assertThat(log.recoveryPoint()).as("not yet synced").isEqualTo(offset);
            assertThat(ack).as("acks=%d waits for the fsync", acks).isNotDone();
            CompletableFuture<Struct> versions = handle(new ApiVersionsHandler(new SupportedApis(), "c", 1, FinalizedFeatures.mirror((short) 2)),
                    request(ApiKey.API_VERSIONS, 3, RawClient.apiVersionsBody().struct()));
            assertThat(versions).as("the handling thread is free while the fsync waits").isDone();

            assertThat(disk.runHeld()).isEqualTo(1);

            assertThat(log.recoveryPoint()).isEqualTo(offset + 1);
            assertThat(ack).isDone();
            Struct partition = ack.get().getStructs("Responses").get(0).getStructs("PartitionResponses").get(0);
            assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
            assertThat(partition.getInt64("BaseOffset")).isEqualTo(offset);
        }
    }

    @Test
    void aProduceWhoseRecordsAnEarlierFsyncCoveredIsAcknowledgedWithoutAnotherOne() throws Exception {
        CompletableFuture<Struct> first = handle(produce, produceRequest((short) 1));
        CompletableFuture<Struct> second = handle(produce, produceRequest((short) 1));

        disk.runHeld(); // the first fsync syncs both appends; the second finds nothing left to sync

        assertThat(first).isDone();
        assertThat(second).isDone();
        assertThat(log.recoveryPoint()).isEqualTo(2);
    }

    private static CompletableFuture<Struct> handle(ApiHandler handler, Request request) {
        return handler.handle(CONTEXT, request).toCompletableFuture();
    }

    private static Request produceRequest(short acks) {
        ByteBuf records = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                System.currentTimeMillis())
                .append(System.currentTimeMillis(), null, "v".getBytes(StandardCharsets.UTF_8), List.of())
                .build();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", acks).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", "durable")
                .addElement("PartitionData").set("Index", 0).set("Records", records);
        return request(ApiKey.PRODUCE, 9, body);
    }

    /** Encodes and decodes the request, as the network does. */
    private static Request request(ApiKey api, int version, Struct body) {
        ByteBuf encoded = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(api.id(), (short) version, 1, "test"), body);
        return MessageCodec.decodeRequest(Frames.readFrame(encoded, Integer.MAX_VALUE));
    }
}
