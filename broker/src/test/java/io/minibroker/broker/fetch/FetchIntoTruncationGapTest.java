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
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A truncation may end the log past its last batch (the batch holding the offset went whole, or the offset lies in a
 * gap). A fetch from an offset between the two finds nothing though it is below the high watermark: as in Kafka
 * (LocalLog.read answers it empty, DelayedFetch goes on waiting), it stays parked until MaxWaitMs, rather than being
 * answered at once with nothing, which would have its client fetch again and again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchIntoTruncationGapTest {

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
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
        handler = new FetchHandler(topics, purgatory, PartitionLeadership.SINGLE_NODE,
                new BrokerTopicMetrics(new SimpleMeterRegistry()), TestFetchSessions.manager(clock),
                BrokerConfig.FETCH_MAX_BYTES.defaultValue(),
                (user, request) -> Integer.MAX_VALUE);
    }

    @AfterEach
    void stop() throws Exception {
        purgatory.close();
        topics.close();
    }

    @Test
    void aFetchFromTheLastBatchsEndBelowTheHighWatermarkWaitsForMaxWait() {
        TestLogs.appendBatchOf(log, 3); // offsets 0..2
        TestLogs.appendBatchOf(log, 3); // offsets 3..5
        log.truncateTo(4); // the batch 3..5 goes whole; the log ends at 4
        assertThat(log.lastBatchEndOffset()).isEqualTo(3);
        assertThat(log.highWatermark()).isEqualTo(4);

        CompletableFuture<Struct> answer = fetch(3);
        assertThat(answer).as("parked: nothing to read at 3 though the high watermark is 4").isNotDone();
        clock.advance(MAX_WAIT_MS - 1);
        assertThat(answer).isNotDone();

        clock.advance(1);
        FetchResponseView.PartitionData partition = new FetchResponseView(answer.join()).responses().get(0)
                .partitions().get(0);
        assertThat(partition.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(partition.highWatermark()).isEqualTo(4);
        assertThat(partition.records().readableBytes()).isZero();
    }

    @Test
    void aFetchBelowTheLastBatchsEndIsAnsweredAtOnce() {
        TestLogs.appendBatchOf(log, 3);
        TestLogs.appendBatchOf(log, 3);
        log.truncateTo(4);

        CompletableFuture<Struct> answer = fetch(2);
        assertThat(answer).isDone();
        List<RecordsPayload> records = answer.join().recordsPayloads();
        records.forEach(RecordsPayload::release);
        assertThat(records).as("the batch 0..2, holding offset 2").hasSize(1);
    }

    private CompletableFuture<Struct> fetch(long offset) {
        FetchRequestView body = new FetchRequestView().maxWaitMs(MAX_WAIT_MS).minBytes(1).maxBytes(1 << 20);
        body.addTopic().topic("t").addPartition().partition(0).fetchOffset(offset).partitionMaxBytes(1 << 20);
        Request request = new Request(new RequestHeader(ApiKey.FETCH.id(), (short) 12, 1, "test"), ApiKey.FETCH,
                body.struct());
        return handler.handle(TestContexts.on("PLAINTEXT"), request).toCompletableFuture();
    }
}
