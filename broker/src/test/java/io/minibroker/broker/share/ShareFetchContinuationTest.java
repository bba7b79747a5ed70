package io.minibroker.broker.share;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ShareFetch carrying acknowledgements goes on, once they are durable, on its connection's event loop: its log
 * reads are not made on the thread that completed the state write (on one node the share coordinator's single
 * thread, which every share-state write of the broker goes through).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareFetchContinuationTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private SharePartitionManager manager;
    private final ExecutorService eventLoop = Executors.newSingleThreadExecutor(task -> new Thread(task, "event-loop"));
    private final ExecutorService coordinator = Executors.newSingleThreadExecutor(
            task -> new Thread(task, "share-coordinator"));
    /** The state write of the acknowledgements, completed by the test on the "coordinator" thread. */
    private final CompletableFuture<Void> written = new CompletableFuture<>();

    private final Persister persister = new NoStatePersister() {
        @Override
        public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                           int stateEpoch) {
            return written;
        }
    };

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        manager = new SharePartitionManager(new ManualClock(), () -> 0L, groupId -> earliest, persister, tp -> 0, 1000);
    }

    @AfterEach
    void stop() throws Exception {
        manager.close();
        eventLoop.shutdownNow();
        coordinator.shutdownNow();
        topics.close();
    }

    /** Appends {@code batches} batches of one record each. */
    private void append(int batches) {
        PartitionLog log = topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
        for (int i = 0; i < batches; i++) {
            TestLogs.appendBatchOf(log, 1);
        }
    }

    private static Request fetch(UUID topicId, int epoch, Acknowledgement... acks) {
        ShareFetchRequestView body = new ShareFetchRequestView().groupId("g").memberId("m").shareSessionEpoch(epoch)
                .maxWaitMs(0).minBytes(1).maxBytes(1 << 20).maxRecords(10).batchSize(10);
        ShareFetchRequestView.FetchPartition partition = body.addTopic().topicId(topicId).addPartition()
                .partitionIndex(0);
        for (Acknowledgement ack : acks) {
            partition.addAcknowledgementBatche().firstOffset(ack.firstOffset()).lastOffset(ack.lastOffset())
                    .acknowledgeTypes(ack.types());
        }
        return new Request(new RequestHeader(ApiKey.SHARE_FETCH.id(), ShareWire.VERSION, epoch, "test"),
                ApiKey.SHARE_FETCH, body.struct());
    }

    @Test
    void theFetchAfterTheAcknowledgementsIsMadeOnTheConnectionsEventLoop() throws Exception {
        append(2);
        UUID topicId = topics.get("t").orElseThrow().id();
        ShareFetchHandler handler = new ShareFetchHandler(manager, new ShareSessionCache(10),
                new ShareLogs(topics, PartitionLeadership.SINGLE_NODE), 1000, Integer.MAX_VALUE,
                (user, request) -> Integer.MAX_VALUE);
        RequestContext context = TestContexts.onEventLoop(new InetSocketAddress("127.0.0.1", 1001), eventLoop);
        ShareFetchResponseView opened = new ShareFetchResponseView(
                handler.handle(context, fetch(topicId, 0)).toCompletableFuture().get());
        assertThat(ShareWire.acquired(opened)).as("acquired as the session opened").isNotEmpty();

        CompletableFuture<Struct> answer = handler.handle(context,
                fetch(topicId, 1, ShareWire.ack(0, 1, AcknowledgeType.ACCEPT))).toCompletableFuture();
        CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
        assertThat(answer).as("waiting for the state write").isNotDone();
        coordinator.execute(() -> written.complete(null));

        assertThat(answeredOn.get()).isEqualTo("event-loop");
        assertThat(new ShareFetchResponseView(answer.get()).errorCode()).isEqualTo(Errors.NONE.code());
    }
}
