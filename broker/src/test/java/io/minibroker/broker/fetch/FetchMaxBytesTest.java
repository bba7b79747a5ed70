package io.minibroker.broker.fetch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.session.TestFetchSessions;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker's {@code fetch.max.bytes} bounds a Fetch whatever its MaxBytes, and its MinBytes with it, as Kafka's
 * KafkaApis clamps both: an answer holds no more than the bound (its first batch aside), and a fetch asking to wait
 * for more than the bound is answered once the bound is there.
 */
class FetchMaxBytesTest {

    private static final int FETCH_MAX_BYTES = 1024;
    private static final int MAX_WAIT_MS = 500;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private final Purgatory<DelayedFetch> purgatory = FetchHandler.newPurgatory(1000, clock);
    private TopicRegistry topics;
    private PartitionLog log;
    private FetchHandler handler;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "fetch.max.bytes", String.valueOf(FETCH_MAX_BYTES)));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
        handler = new FetchHandler(topics, purgatory, PartitionLeadership.SINGLE_NODE,
                new BrokerTopicMetrics(new SimpleMeterRegistry()), TestFetchSessions.manager(clock),
                config.get(BrokerConfig.FETCH_MAX_BYTES),
                (user, request) -> Integer.MAX_VALUE);
        for (int i = 0; i < 4; i++) {
            TestLogs.appendBatchOf(log, 40);
        }
        assertThat(log.size()).as("four batches, together above the bound").isGreaterThan(2L * FETCH_MAX_BYTES);
    }

    @AfterEach
    void stop() throws Exception {
        purgatory.close();
        topics.close();
    }

    @Test
    void anAnswerHoldsNoMoreThanFetchMaxBytesWhateverTheRequestAsks() {
        CompletableFuture<Struct> answer = fetch(1, 1 << 20);

        assertThat(answer).isDone();
        assertThat(recordBytes(answer.join())).isPositive().isLessThanOrEqualTo(FETCH_MAX_BYTES);
    }

    @Test
    void aFetchWaitingForMoreThanFetchMaxBytesIsAnsweredOnceTheBoundIsThere() {
        CompletableFuture<Struct> answer = fetch(1 << 20, 1 << 20);

        assertThat(answer).as("MinBytes bounded by fetch.max.bytes, which the log holds").isDone();
        assertThat(recordBytes(answer.join())).isPositive();
    }

    private CompletableFuture<Struct> fetch(int minBytes, int maxBytes) {
        FetchRequestView body = new FetchRequestView().maxWaitMs(MAX_WAIT_MS).minBytes(minBytes).maxBytes(maxBytes);
        body.addTopic().topic("t").addPartition().partition(0).fetchOffset(0).partitionMaxBytes(1 << 20);
        Request request = new Request(new RequestHeader(ApiKey.FETCH.id(), (short) 12, 1, "test"), ApiKey.FETCH,
                body.struct());
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture();
    }

    private static long recordBytes(Struct answer) {
        List<RecordsPayload> records = answer.recordsPayloads();
        long bytes = 0;
        for (RecordsPayload payload : records) {
            bytes += payload.sizeInBytes();
            payload.release();
        }
        return bytes;
    }
}
