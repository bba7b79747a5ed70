package io.minibroker.broker.replica;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.FetchResponseView.FetchableTopicResponse;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fetch answer whose taking fails partway (here the first partition's records are not a batch) starts the fetch
 * session over: the next fetch is full and names every partition, so what the leader's session counted as told to
 * the partitions after the failure (their high watermark, their log start) is told again. Without that the next fetch
 * is incremental, and the leader names those partitions only when they change again. The follower fetches from a
 * scripted leader that records each fetch.
 */
class FetchAnswerFailureTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);
    private static final UUID TOPIC_ID = new UUID(3, 4);
    private static final int SESSION_ID = 7;
    /** No follower.replication.throttled.rate: nothing is throttled. */
    private static final ReplicationQuota UNTHROTTLED = ReplicationQuota.follower(BrokerConfig.of(Map.of()),
            topic -> Optional.empty(), () -> 0);

    @TempDir
    Path logDir;
    private final List<PartitionLog> logs = new ArrayList<>();
    private ScriptedLeader leader;
    private ReplicaFetcher fetcher;

    @BeforeEach
    void open() throws Exception {
        for (int p = 0; p < 2; p++) {
            logs.add(TestLogs.open(logDir.resolve("t-" + p), new TopicPartition("t", p), LogConfig.defaults(), CLOCK,
                    0, 0, true));
        }
        leader = new ScriptedLeader();
    }

    @AfterEach
    void close() throws Exception {
        if (fetcher != null) {
            fetcher.close();
        }
        leader.close();
        for (PartitionLog log : logs) {
            log.close();
        }
    }

    @Test
    void anAnswerThatFailsPartwayMakesTheNextFetchFull() throws Exception {
        fetcher = ReplicaFetcher.start(1, () -> 1, new BrokerNode(0, "PLAINTEXT", "localhost", leader.port()),
                new FetcherSettings(100, 1, 1 << 20, 1 << 20, 1), ClientSecurity.NONE, new FetchPauses(), new FetchDelays(),
                new FlushHolds(), new BrokerTopicMetrics(new SimpleMeterRegistry()), UNTHROTTLED, partition -> { });
        fetcher.setPartitions(List.of(new FollowedPartition(TOPIC_ID, logs.get(0), 0),
                new FollowedPartition(TOPIC_ID, logs.get(1), 0)));

        FetchRequestView first = leader.nextFetch();
        assertThat(first.sessionEpoch()).as("the session's first fetch is full").isZero();
        leader.answer(answer(Unpooled.EMPTY_BUFFER));
        FetchRequestView second = leader.nextFetch();
        assertThat(second.sessionId()).isEqualTo(SESSION_ID);
        assertThat(second.sessionEpoch()).as("then incremental").isEqualTo(1);
        // Not a batch: partition 0's append fails before partition 1's part is taken.
        leader.answer(answer(Unpooled.wrappedBuffer(new byte[5])));

        FetchRequestView third = leader.nextFetch();
        assertThat(third.sessionEpoch()).as("the fetch after the failed answer starts over").isZero();
        assertThat(third.topics()).singleElement()
                .satisfies(topic -> assertThat(topic.partitions()).hasSize(2));
    }

    @Test
    void anUnexpectedErrorWhileTakingAnAnswerLeavesTheFetcherFetching() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean(true);
        fetcher = ReplicaFetcher.start(1, () -> 1, new BrokerNode(0, "PLAINTEXT", "localhost", leader.port()),
                new FetcherSettings(100, 1, 1 << 20, 1 << 20, 1), ClientSecurity.NONE, new FetchPauses(), new FetchDelays(),
                new FlushHolds(), new BrokerTopicMetrics(new SimpleMeterRegistry()), UNTHROTTLED, partition -> {
                    if (failNext.getAndSet(false)) {
                        throw new IllegalStateException("a bug in what follows an append");
                    }
                });
        fetcher.setPartitions(List.of(new FollowedPartition(TOPIC_ID, logs.get(0), 0),
                new FollowedPartition(TOPIC_ID, logs.get(1), 0)));

        leader.nextFetch();
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 0)
                .append(0, null, new byte[] {1}, List.of()).build();
        leader.answer(answer(batch));

        FetchRequestView next = leader.nextFetch();
        assertThat(failNext).as("the answer was taken and its progress reported").isFalse();
        assertThat(next.sessionEpoch()).as("the thread lives on, starting the session over").isZero();
        leader.answer(answer(Unpooled.EMPTY_BUFFER));
        assertThat(leader.nextFetch()).as("and goes on fetching").isNotNull();
    }

    /** An answer in session {@value #SESSION_ID} for both partitions, partition 0 with these records. */
    private static FetchResponseView answer(ByteBuf partition0Records) {
        FetchResponseView response = new FetchResponseView().errorCode(Errors.NONE.code()).sessionId(SESSION_ID);
        FetchableTopicResponse topic = response.addResponse().topicId(TOPIC_ID);
        topic.addPartition().partitionIndex(0).errorCode(Errors.NONE.code()).highWatermark(0).lastStableOffset(0)
                .logStartOffset(0).records(partition0Records);
        topic.addPartition().partitionIndex(1).errorCode(Errors.NONE.code()).highWatermark(0).lastStableOffset(0)
                .logStartOffset(0);
        return response;
    }

    /** A leader that hands each fetch to the test and sends the answer the test gives. */
    private static final class ScriptedLeader implements AutoCloseable {

        private final BlockingQueue<FetchRequestView> fetches = new LinkedBlockingQueue<>();
        private final BlockingQueue<FetchResponseView> answers = new LinkedBlockingQueue<>();
        private final ScriptedPeer peer = new ScriptedPeer("scripted-leader", request -> {
            fetches.add(new FetchRequestView(request.body()));
            return Optional.of(answers.take().struct());
        });

        int port() {
            return peer.port();
        }

        /** The next fetch the follower sent, waited for as long as the follower's backoff and a loaded machine take. */
        FetchRequestView nextFetch() throws InterruptedException {
            FetchRequestView fetch = fetches.poll(30, TimeUnit.SECONDS);
            assertThat(fetch).as("a fetch from the follower").isNotNull();
            return fetch;
        }

        void answer(FetchResponseView response) {
            answers.add(response);
        }

        @Override
        public void close() throws IOException {
            peer.close();
        }
    }
}
