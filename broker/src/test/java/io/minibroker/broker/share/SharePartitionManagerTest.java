package io.minibroker.broker.share;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share partitions of a node, from inside: a parked ShareFetch whose MinBytes must be counted from the log's
 * batch headers is checked where new records are announced (an append's event loop, here the test's thread) without
 * reading the log there, the count, and so the answer with its records, made on the disk-io thread (with the
 * default MinBytes, the answer too); and a group's
 * share partitions are dropped from memory once it has no share session left here (Kafka's onGroupEmpty).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharePartitionManagerTest {

    private static final String DISK_THREAD = "test-disk-io";

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private ExecutorService disk;
    private SharePartitionManager manager;

    /** A share coordinator with no state for anyone, that forgets what it is told. */
    private static final Persister NO_STATE = new Persister() {
        @Override
        public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
            return CompletableFuture.completedFuture(new State(null, 0));
        }

        @Override
        public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                           int stateEpoch) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Summary> summary(SharePartitionKey key) {
            return CompletableFuture.completedFuture(Summary.NONE);
        }

        @Override
        public CompletionStage<Void> delete(SharePartitionKey key) {
            return CompletableFuture.completedFuture(null);
        }
    };

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        disk = Executors.newSingleThreadExecutor(task -> new Thread(task, DISK_THREAD));
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, true, false);
        manager = new SharePartitionManager(new ManualClock(), groupId -> earliest, NO_STATE, tp -> 0, 1000,
                new DiskReads(disk));
    }

    @AfterEach
    void stop() throws Exception {
        manager.close();
        disk.shutdown();
        disk.awaitTermination(10, TimeUnit.SECONDS);
        topics.close();
    }

    private PartitionLog log() {
        return topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
    }

    private void append(int batches) {
        for (int i = 0; i < batches; i++) {
            RecordBatchBuilder builder = new RecordBatchBuilder(UnpooledByteBufAllocator.DEFAULT, CompressionType.NONE,
                    0, 0);
            ByteBuf batch = builder.append(0, null, ("value-" + i).getBytes(StandardCharsets.UTF_8), List.of())
                    .build();
            try {
                log().append(batch, 0);
            } finally {
                batch.release();
            }
        }
    }

    /** Waits for what the disk thread was given so far. */
    private void diskIdle() throws Exception {
        disk.submit(() -> { }).get();
    }

    private ShareFetchWork work(String groupId, int minBytes) {
        UUID topicId = topics.get("t").orElseThrow().id();
        return new ShareFetchWork(manager, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE), groupId, "m",
                List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, minBytes, 10_000, 1 << 20,
                Integer.MAX_VALUE, Map.of());
    }

    @Test
    void theMinBytesCountAndTheAnswerAreMadeOnTheDiskThread() throws Exception {
        append(1); // one batch: fewer bytes than MinBytes
        ShareFetchWork work = work("g", 500);
        assertThat(work.readiness(false)).as("its state loading").isEqualTo(ShareFetchWork.Readiness.WAIT);
        assertThat(work.readiness(false)).as("records to acquire, their bytes not counted off the disk thread")
                .isEqualTo(ShareFetchWork.Readiness.COUNT_ON_DISK);

        CompletableFuture<Struct> answer = new CompletableFuture<>();
        CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
        manager.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, work, answer,
                manager.diskReads()), work.watchKeys());
        diskIdle();
        assertThat(answer).as("counted on the disk thread: too few bytes yet").isNotDone();

        append(10);
        manager.onAppend(log().topicPartition()); // as the append's event loop tells the purgatory
        assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo(DISK_THREAD);
    }

    /** Parks {@code work} from this thread, as a handler's event loop does; completes with its answer's thread. */
    private CompletableFuture<String> parkedAnswerThread(ShareFetchWork work) {
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
        manager.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, work, answer,
                manager.diskReads()), work.watchKeys());
        return answeredOn;
    }

    @Test
    void withTheDefaultMinBytesTheRecordsAreReadOnTheDiskThreadWhenAnAppendCompletesTheFetch() throws Exception {
        ShareFetchWork work = work("g", 1);
        CompletableFuture<String> answeredOn = parkedAnswerThread(work);
        diskIdle();
        assertThat(answeredOn).as("nothing to acquire yet").isNotDone();

        append(1);
        manager.onAppend(log().topicPartition()); // as the append's event loop tells the purgatory
        assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo(DISK_THREAD);
    }

    @Test
    void withTheDefaultMinBytesAFetchReadyAtOnceReadsItsRecordsOnTheDiskThread() throws Exception {
        append(1);
        ShareFetchWork work = work("g", 1);
        work.readiness(false); // loads the share partition
        assertThat(work.readiness(false)).isEqualTo(ShareFetchWork.Readiness.ANSWER);
        assertThat(parkedAnswerThread(work).get(10, TimeUnit.SECONDS)).isEqualTo(DISK_THREAD);

        append(1);
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
        manager.diskReads().complete(answer, work("g", 1)::respond); // the handler's immediate answer
        assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo(DISK_THREAD);
    }

    @Test
    void aGroupsSharePartitionsAreDroppedWhenItsLastSessionHereEnds() throws Exception {
        append(1);
        ShareSessionCache sessions = new ShareSessionCache(10);
        UUID topicId = topics.get("t").orElseThrow().id();
        List<TopicIdPartition> partitions = List.of(new TopicIdPartition(topicId, 0));
        InetSocketAddress first = new InetSocketAddress("127.0.0.1", 1001);
        InetSocketAddress second = new InetSocketAddress("127.0.0.1", 1002);
        sessions.forFetch("g", "m1", ShareSessionCache.INITIAL_EPOCH, partitions, List.of(), first);
        sessions.forFetch("g", "m2", ShareSessionCache.INITIAL_EPOCH, partitions, List.of(), second);
        work("g", 1).readiness(false); // loads the share partition
        assertThat(work("g", 1).readiness(false)).isEqualTo(ShareFetchWork.Readiness.ANSWER);
        assertThat(manager.keysOf("g")).hasSize(1);

        manager.releaseSessions(sessions.closeConnection(first), sessions);
        assertThat(manager.keysOf("g")).as("another member's session is open here").hasSize(1);
        manager.releaseSessions(sessions.closeConnection(second), sessions);
        assertThat(manager.keysOf("g")).isEmpty();
    }

    /**
     * A write the share coordinator fences (here FENCED_STATE_EPOCH: the state was initialized again since this node
     * loaded it) answers the acknowledgement NOT_LEADER_OR_FOLLOWER and drops the share partition, as Kafka's
     * SharePartitionManager drops a fenced one: the next fetch reads the state again, with its new state epoch.
     */
    @Test
    void aFencedWriteDropsTheSharePartitionSoThatTheNextFetchLoadsItAgain() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        Persister fencing = new Persister() {
            @Override
            public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
                return CompletableFuture.completedFuture(new State(null, reads.incrementAndGet()));
            }

            @Override
            public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                               int stateEpoch) {
                return CompletableFuture.failedFuture(new LogException(Errors.FENCED_STATE_EPOCH, "fenced"));
            }

            @Override
            public CompletionStage<Void> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
                return NO_STATE.initialize(key, stateEpoch, startOffset);
            }

            @Override
            public CompletionStage<Summary> summary(SharePartitionKey key) {
                return NO_STATE.summary(key);
            }

            @Override
            public CompletionStage<Void> delete(SharePartitionKey key) {
                return NO_STATE.delete(key);
            }
        };
        append(1);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, true, false);
        SharePartitionManager fenced = new SharePartitionManager(new ManualClock(), groupId -> earliest, fencing,
                tp -> 0, 1000, new DiskReads(disk));
        try {
            SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
            assertThat(fenced.partition(key, log())).as("loading").isNull();
            SharePartition loaded = fenced.partition(key, log());
            assertThat(loaded.stateEpoch()).isEqualTo(1);
            assertThat(loaded.acquire("m", 10, List.<long[]>of(new long[] {0, 0}))).hasSize(1);

            assertThat(fenced.acknowledge(loaded, "m", List.of(new Acknowledgement(0, 0, List.of((byte) 1))))
                    .toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(fenced.partition(key, log())).as("dropped: loading again").isNull();
            assertThat(fenced.partition(key, log()).stateEpoch()).isEqualTo(2);
        } finally {
            fenced.close();
        }
    }
}
