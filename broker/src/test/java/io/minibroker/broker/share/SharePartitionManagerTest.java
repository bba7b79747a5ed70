package io.minibroker.broker.share;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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
 * The share partitions of a node, from inside: a parked ShareFetch is checked, and answered with its records, on the
 * thread that tells the purgatory of new records (an append's event loop, here the test's thread), as a parked Fetch
 * is, its MinBytes counted there from the log's batch headers, and, woken by its share partition's load, on the event
 * loop of the request that started the load; a stop answers a parked fetch, and one arriving after
 * it, with what there is; and a group's share partitions are dropped from memory once it has no share session left
 * here (Kafka's onGroupEmpty).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharePartitionManagerTest {

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private TopicRegistry topics;
    private SharePartitionManager manager;

    /** A fetch that may acquire every record it finds. */
    private static final ShareFetchWork.RecordLimit UNLIMITED =
            new ShareFetchWork.RecordLimit(ShareAcquireMode.BATCH_OPTIMIZED, Integer.MAX_VALUE, 0);

    /** The listener the fetches came in on: a single node names no leader on it. */
    private static final String LISTENER = "PLAINTEXT";

    /** A share coordinator with no state for anyone, that counts and forgets what it is told. */
    private final NoStatePersister noState = new NoStatePersister();

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        manager = new SharePartitionManager(clock, clock::nowMs, groupId -> earliest, noState, tp -> 0, 1000);
    }

    @AfterEach
    void stop() throws Exception {
        manager.close();
        topics.close();
    }

    private PartitionLog log() {
        return topics.partitionLog(topics.get("t").orElseThrow(), 0).orElseThrow();
    }

    private void append(int batches) {
        for (int i = 0; i < batches; i++) {
            TestLogs.appendBatchOf(log(), 1);
        }
    }

    /** A fetch of group g's member m through {@code partitions}, waiting for one byte. */
    private ShareFetchWork workOf(SharePartitionManager partitions) {
        UUID topicId = topics.get("t").orElseThrow().id();
        return new ShareFetchWork(partitions, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE), "g", "m",
                List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, 1, 10_000, 1 << 20, UNLIMITED, Map.of(),
                Map.of(), Runnable::run, LISTENER);
    }

    private ShareFetchWork work(String groupId, int minBytes) {
        UUID topicId = topics.get("t").orElseThrow().id();
        return new ShareFetchWork(manager, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE), groupId, "m",
                List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, minBytes, 10_000, 1 << 20,
                UNLIMITED, Map.of(), Map.of(), Runnable::run, LISTENER);
    }

    /** The answer of a fetch parked from this thread, as a handler's event loop parks it, and the answering thread. */
    private record Parked(CompletableFuture<Struct> answer, CompletableFuture<String> answeredOn) {
    }

    private Parked park(ShareFetchWork work) {
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
        manager.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, work, answer), work.watchKeys());
        return new Parked(answer, answeredOn);
    }

    /** Loads the share partition of group g with a fetch of member m, which acquires {@code first} to {@code last}. */
    private SharePartition loadedAndAcquiredByM(long first, long last) throws Exception {
        ShareFetchWork work = work("g", 1);
        work.canAnswer(); // loads the share partition
        assertThat(acquired(park(work).answer().get())).containsExactly(List.of(first, last));
        UUID topicId = topics.get("t").orElseThrow().id();
        return manager.partition(new SharePartitionKey("g", topicId, 0), log(), Runnable::run, error -> { });
    }

    /** The acquired runs of the only partition of an answer, as {first, last}. */
    private static List<List<Long>> acquired(Struct answer) {
        return ShareWire.acquired(new ShareFetchResponseView(answer)).stream().map(run -> run.subList(0, 2)).toList();
    }

    /**
     * A fetch that asks for a share partition at each of its checks while its state loads is told of the load's
     * failure once: one callback per load, not one per check kept until the load ends.
     */
    @Test
    void aLoadsFailureIsToldOnceHoweverOftenTheSameFetchAsks() throws Exception {
        CompletableFuture<Persister.State> read = new CompletableFuture<>();
        SharePartitionManager slow = new SharePartitionManager(clock, clock::nowMs,
                groupId -> new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false), new NoStatePersister() {
                    @Override
                    public CompletionStage<Persister.State> read(SharePartitionKey key, int leaderEpoch) {
                        return read;
                    }
                }, tp -> 0, 1000);
        try {
            SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
            List<Errors> told = new CopyOnWriteArrayList<>();
            Consumer<Errors> onLoadFailure = told::add;
            for (int i = 0; i < 5; i++) {
                assertThat(slow.partition(key, log(), Runnable::run, onLoadFailure)).as("loading").isNull();
            }
            read.completeExceptionally(new IllegalStateException("the share coordinator failed"));
            assertThat(told).hasSize(1);
        } finally {
            slow.close();
        }
    }

    @Test
    void theMinBytesCountAndTheAnswerAreMadeOnTheThreadThatChecks() throws Exception {
        append(1); // one batch: fewer bytes than MinBytes
        ShareFetchWork work = work("g", 500);
        assertThat(work.canAnswer()).as("its state loading").isFalse();
        assertThat(work.canAnswer()).as("records to acquire, too few bytes of them").isFalse();

        Parked parked = park(work);
        assertThat(parked.answer()).isNotDone();

        append(10);
        manager.onAppend(log().topicPartition()); // as the append's event loop tells the purgatory
        assertThat(parked.answeredOn()).as("answered within the append's check").isDone();
        assertThat(parked.answeredOn().get()).isEqualTo(Thread.currentThread().getName());
        assertThat(acquired(parked.answer().get())).containsExactly(List.of(0L, 10L));
    }

    @Test
    void withTheDefaultMinBytesAnAppendCompletesAndAnswersTheFetchWhereItIsTold() throws Exception {
        ShareFetchWork work = work("g", 1);
        Parked parked = park(work);
        assertThat(parked.answer()).as("nothing to acquire yet").isNotDone();

        append(1);
        manager.onAppend(log().topicPartition());
        assertThat(parked.answeredOn()).isDone();
        assertThat(parked.answeredOn().get()).isEqualTo(Thread.currentThread().getName());
        assertThat(acquired(parked.answer().get())).containsExactly(List.of(0L, 0L));
    }

    /**
     * A truncation may end the log past its last batch: a share partition whose next offset lies between the two has
     * nothing to acquire though it is below the high watermark, so its fetch waits for MaxWaitMs, as a Fetch from there
     * does, rather than being answered at once with nothing (its consumer would fetch again and again).
     */
    @Test
    void aFetchFromTheLastBatchsEndBelowTheHighWatermarkWaitsForMaxWait() throws Exception {
        TestLogs.appendBatchOf(log(), 3); // offsets 0..2
        ShareFetchWork work = work("g", 1);
        work.canAnswer(); // loads the share partition
        assertThat(acquired(park(work).answer().get())).containsExactly(List.of(0L, 2L));
        TestLogs.appendBatchOf(log(), 3); // offsets 3..5
        log().truncateTo(4); // the batch 3..5 goes whole; the log ends at 4, its high watermark too
        assertThat(log().highWatermark()).isEqualTo(4);

        Parked parked = park(work("g", 1));
        assertThat(parked.answer()).as("nothing to acquire from 3, though the high watermark is 4").isNotDone();
        clock.advance(10_000 - 1);
        assertThat(parked.answer()).isNotDone();
        clock.advance(1);
        assertThat(acquired(parked.answer().get())).isEmpty();
    }

    /**
     * A fetch parked while its share partition loads is answered once the load is done: on the event loop of the
     * request that started the load, not on the thread that answered the read (on one node the share coordinator's
     * single thread, which every other share-state read and write waits behind).
     */
    @Test
    void aFetchWokenByItsLoadIsAnsweredOnTheEventLoopOfTheRequestThatStartedIt() throws Exception {
        CompletableFuture<Persister.State> state = new CompletableFuture<>();
        Persister slow = new NoStatePersister() {
            @Override
            public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
                return state;
            }
        };
        ExecutorService eventLoop = Executors.newSingleThreadExecutor(task -> new Thread(task, "event-loop"));
        ExecutorService coordinator = Executors.newSingleThreadExecutor(task -> new Thread(task, "share-coordinator"));
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        SharePartitionManager loading = new SharePartitionManager(clock, clock::nowMs, groupId -> earliest, slow, tp -> 0, 1000);
        try {
            append(1);
            UUID topicId = topics.get("t").orElseThrow().id();
            ShareFetchWork work = new ShareFetchWork(loading, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE),
                    "g", "m", List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, 1, 10_000, 1 << 20,
                    UNLIMITED, Map.of(), Map.of(), eventLoop, LISTENER);
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            CompletableFuture<String> answeredOn = answer.thenApply(response -> Thread.currentThread().getName());
            eventLoop.submit(() -> { // as the handler parks it, on its connection's event loop
                if (!work.canAnswer()) {
                    loading.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, work, answer),
                            work.watchKeys());
                }
            }).get(10, TimeUnit.SECONDS);
            assertThat(answer).as("its share partition loading").isNotDone();

            coordinator.submit(() -> state.complete(new Persister.State(null, 0))); // the read answered there
            assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo("event-loop");
            assertThat(acquired(answer.get())).containsExactly(List.of(0L, 0L));
        } finally {
            loading.close();
            eventLoop.shutdownNow();
            coordinator.shutdownNow();
        }
    }

    @Test
    void aStopAnswersAParkedFetchAndOneArrivingAfterItWithWhatThereIs() throws Exception {
        ShareFetchWork work = work("g", 500);
        work.canAnswer(); // loads the share partition
        Parked parked = park(work);
        append(1);
        manager.onAppend(log().topicPartition());
        assertThat(parked.answer()).as("one batch is under MinBytes").isNotDone();

        manager.close(); // as the broker's stop does, before the disk-io thread stops and long before the logs close
        assertThat(parked.answer()).isDone().isNotCompletedExceptionally();
        assertThat(acquired(parked.answer().get())).containsExactly(List.of(0L, 0L));

        // One whose acknowledgements were written after the stop began: it would wait, but its purgatory is closed.
        Parked late = park(work("g", 1));
        assertThat(late.answer()).isDone().isNotCompletedExceptionally();
        assertThat(new ShareFetchResponseView(late.answer().get()).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(acquired(late.answer().get())).isEmpty();
    }

    @Test
    void aStopDropsTheReleasesOfClosedConnectionsAndAnswersAnAcknowledgementWithoutWriting() throws Exception {
        append(2);
        SharePartition partition = loadedAndAcquiredByM(0, 1);
        UUID topicId = topics.get("t").orElseThrow().id();
        int written = noState.writes.get();

        manager.close(); // the share coordinator stops with it: a write now would be refused
        manager.releaseAll("g", "m", List.of(new TopicIdPartition(topicId, 0))); // as a connection closed by the stop
        assertThat(noState.writes).as("the release is dropped, not failed").hasValue(written);
        assertThat(manager.acknowledge(partition, "m", List.of(ShareWire.ack(0, 1, AcknowledgeType.ACCEPT)))
                .toCompletableFuture().get().error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(noState.writes).hasValue(written);
    }

    /**
     * As Kafka's SharePartition, an acknowledgement's state is written with the start offset the share partition had
     * before it, and the start offset moves once it is written: after every record is acknowledged the share
     * coordinator keeps them, acknowledged, above the old start offset (kafka-share-groups.sh --describe --offsets:
     * START-OFFSET 0 on both brokers), while the leader serves on from past them.
     */
    @Test
    void anAcknowledgementIsWrittenWithTheStartOffsetItHadBeforeAndMovesItAfter() throws Exception {
        append(10);
        SharePartition partition = loadedAndAcquiredByM(0, 9);

        assertThat(manager.acknowledge(partition, "m", List.of(ShareWire.ack(0, 9, AcknowledgeType.ACCEPT)))
                .toCompletableFuture().get().error()).isEqualTo(Errors.NONE);

        assertThat(noState.lastWritten).isEqualTo(new ShareStateSnapshot(0,
                List.of(new ShareStateSnapshot.StateBatch(0, 9, RecordState.ACKNOWLEDGED, 1))));
        assertThat(noState.lastWritten.deliveryCompleteCount()).isEqualTo(10);
        assertThat(partition.startOffset()).as("moved once written").isEqualTo(10);
    }

    /**
     * As Kafka 4.3.1's lock timeout (SharePartition.releaseAcquisitionLockOnTimeout): the released records are written
     * with the start offset as it is, and it moves once the write completes (maybeUpdateCachedStateAndOffsets), here
     * when the expiry archives the records at the head of the window, their delivery count limit reached.
     */
    @Test
    void aLockExpiryIsWrittenWithTheStartOffsetItHadBeforeAndMovesItAfter() throws Exception {
        manager.close();
        ShareGroupSettings twoDeliveries = new ShareGroupSettings(30_000, 2, 2000, ShareAutoOffsetReset.EARLIEST, false);
        manager = new SharePartitionManager(clock, clock::nowMs, groupId -> twoDeliveries, noState, tp -> 0, 1000);
        append(10);
        SharePartition partition = loadedAndAcquiredByM(0, 9);
        clock.advance(30_000);
        assertThat(partition.stateOf(0)).as("the first expiry makes them available").isEqualTo(RecordState.AVAILABLE);
        assertThat(acquired(park(work("g", 1)).answer().get())).containsExactly(List.of(0L, 9L));

        clock.advance(30_000);
        assertThat(noState.lastWritten).isEqualTo(new ShareStateSnapshot(0,
                List.of(new ShareStateSnapshot.StateBatch(0, 9, RecordState.ARCHIVED, 2))));
        assertThat(partition.startOffset()).as("moved once written").isEqualTo(10);
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
        work("g", 1).canAnswer(); // loads the share partition
        assertThat(work("g", 1).canAnswer()).isTrue();
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
        Persister fencing = new NoStatePersister() {
            @Override
            public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
                return CompletableFuture.completedFuture(new State(null, reads.incrementAndGet()));
            }

            @Override
            public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                               int stateEpoch) {
                return CompletableFuture.failedFuture(new LogException(Errors.FENCED_STATE_EPOCH, "fenced"));
            }
        };
        append(1);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        SharePartitionManager fenced = new SharePartitionManager(new ManualClock(), () -> 0L, groupId -> earliest, fencing,
                tp -> 0, 1000);
        try {
            SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
            assertThat(fenced.partition(key, log(), Runnable::run, error -> { })).as("loading").isNull();
            SharePartition loaded = fenced.partition(key, log(), Runnable::run, error -> { });
            assertThat(loaded.stateEpoch()).isEqualTo(1);
            assertThat(loaded.acquire("m", ShareAcquireMode.BATCH_OPTIMIZED, 10, 10,
                    List.<long[]>of(new long[] {0, 0}), offset -> false)).hasSize(1);

            assertThat(fenced.acknowledge(loaded, "m", List.of(new Acknowledgement(0, 0, List.of((byte) 1))))
                    .toCompletableFuture().get(10, TimeUnit.SECONDS).error()).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
            assertThat(fenced.partition(key, log(), Runnable::run, error -> { })).as("dropped: loading again").isNull();
            assertThat(fenced.partition(key, log(), Runnable::run, error -> { }).stateEpoch()).isEqualTo(2);
        } finally {
            fenced.close();
        }
    }

    /**
     * AlterShareGroupOffsets' reset of a loaded share partition that the share coordinator refuses (here fenced by a
     * newer state epoch) changes nothing here: the partition serves on from where it was, under its state epoch, so
     * that its next write cannot make the refused reset stick. One the coordinator takes moves it.
     */
    @Test
    void aResetTheShareCoordinatorRefusesLeavesTheLoadedPartitionAsItWas() throws Exception {
        AtomicInteger refusals = new AtomicInteger(1);
        Persister refusingOnce = new NoStatePersister() {
            @Override
            public CompletionStage<Void> initialize(SharePartitionKey key, int stateEpoch, long startOffset) {
                return refusals.getAndDecrement() > 0
                        ? CompletableFuture.failedFuture(new LogException(Errors.FENCED_STATE_EPOCH, "fenced"))
                        : super.initialize(key, stateEpoch, startOffset);
            }
        };
        append(10);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        SharePartitionManager resetting = new SharePartitionManager(new ManualClock(), () -> 0L, groupId -> earliest,
                refusingOnce, tp -> 0, 1000);
        try {
            SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
            assertThat(resetting.partition(key, log(), Runnable::run, error -> { })).as("loading").isNull();
            SharePartition loaded = resetting.partition(key, log(), Runnable::run, error -> { });

            assertThat(resetting.reset(key, 5, 3).toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS);
            assertThat(loaded.startOffset()).isZero();
            assertThat(loaded.stateEpoch()).isZero();
            assertThat(resetting.partition(key, log(), Runnable::run, error -> { })).as("still loaded").isSameAs(loaded);

            resetting.reset(key, 5, 3).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(loaded.startOffset()).isEqualTo(5);
            assertThat(loaded.stateEpoch()).isEqualTo(3);
        } finally {
            resetting.close();
        }
    }

    /**
     * A failed load answers the fetches waiting for it then and nothing later (Kafka's SharePartitionManager fails
     * the pending fetches and drops the share partition): a fetch arriving after it, however much later, loads the
     * state again and is served, not answered the old error.
     */
    @Test
    void aFetchAfterAFailedLoadThatNoFetchWaitedForLoadsAgain() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        Persister failingOnce = new NoStatePersister() {
            @Override
            public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
                return reads.incrementAndGet() == 1
                        ? CompletableFuture.failedFuture(new LogException(Errors.COORDINATOR_LOAD_IN_PROGRESS, "busy"))
                        : super.read(key, leaderEpoch);
            }
        };
        append(1);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        SharePartitionManager failing = new SharePartitionManager(clock, clock::nowMs, groupId -> earliest, failingOnce, tp -> 0,
                1000);
        try {
            SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
            assertThat(failing.partition(key, log(), Runnable::run, error -> { })).as("its load failed at once").isNull();
            assertThat(reads).hasValue(1);

            UUID topicId = topics.get("t").orElseThrow().id();
            ShareFetchWork later = new ShareFetchWork(failing, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE),
                    "g", "m", List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, 1, 10_000, 1 << 20,
                    UNLIMITED, Map.of(), Map.of(), Runnable::run, LISTENER);
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            failing.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, later, answer),
                    later.watchKeys());
            assertThat(reads).as("loaded again").hasValue(2);
            assertThat(answer).isDone();
            ShareFetchResponseView.PartitionData data = new ShareFetchResponseView(answer.get()).responses().get(0)
                    .partitions().get(0);
            assertThat(data.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acquired(answer.get())).containsExactly(List.of(0L, 0L));
        } finally {
            failing.close();
        }
    }

    /**
     * share.auto.offset.reset=by_duration:PT1H, as a Kafka 4.3.1 node did it (2026-11-29): a share partition with no
     * state starts at the first record stamped within the hour before the broker's wall clock; while no record is
     * that recent the fetch is answered OFFSET_NOT_AVAILABLE and no share partition is made (Kafka's group then has
     * no start offset for it), and a later fetch, once a recent record has arrived, starts there.
     */
    @Test
    void byDurationStartsAtTheFirstRecordThatRecentAndWaitsForOneWhileThereIsNone() throws Exception {
        long now = 1_700_000_000_000L; // in the past: the log refuses timestamps over an hour ahead of its clock
        ShareGroupSettings lastHour = new ShareGroupSettings(30_000, 5, 2000,
                ShareAutoOffsetReset.parse("by_duration:PT1H"), false);
        SharePartitionManager byDuration = new SharePartitionManager(clock, () -> now, groupId -> lastHour, noState,
                tp -> 0, 1000);
        try {
            TestLogs.appendBatchAt(log(), 1, now - 7_200_000); // offset 0, two hours old
            TestLogs.appendBatchAt(log(), 1, now - 3_600_001); // offset 1, just over the hour
            ShareFetchWork tooOld = workOf(byDuration);
            CompletableFuture<Struct> refused = new CompletableFuture<>();
            byDuration.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, tooOld, refused),
                    tooOld.watchKeys());
            assertThat(refused).as("answered at once").isDone();
            assertThat(new ShareFetchResponseView(refused.get()).responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.OFFSET_NOT_AVAILABLE.code());
            assertThat(byDuration.keysOf("g")).as("no share partition made").isEmpty();

            TestLogs.appendBatchAt(log(), 1, now - 3_600_000); // offset 2, exactly an hour old
            TestLogs.appendBatchAt(log(), 1, now); // offset 3
            ShareFetchWork recent = workOf(byDuration);
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            byDuration.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, recent, answer),
                    recent.watchKeys());
            assertThat(answer).isDone();
            assertThat(acquired(answer.get())).containsExactly(List.of(2L, 3L));
        } finally {
            byDuration.close();
        }
    }

    @Test
    void byDurationLongerThanTheEpochStartsAtTheLogStart() {
        TestLogs.appendBatchAt(log(), 1, 5);
        TestLogs.appendBatchAt(log(), 1, 10);
        assertThat(ShareAutoOffsetReset.parse("by_duration:P36500D").startOffset(log(), 1_000))
                .hasValue(0);
        assertThat(ShareAutoOffsetReset.parse("by_duration:PT0.001S").startOffset(log(), 10)).hasValue(1);
        assertThat(ShareAutoOffsetReset.parse("by_duration:PT0S").startOffset(log(), 11)).isEmpty();
        assertThat(ShareAutoOffsetReset.EARLIEST.startOffset(log(), 11)).hasValue(0);
        assertThat(ShareAutoOffsetReset.LATEST.startOffset(log(), 11)).hasValue(2);
    }

    /**
     * A fetch that started a load which fails before the fetch is parked answers the error (Kafka's ShareFetch keeps
     * the partitions whose initialization failed as erroneous), not nothing after its MaxWaitMs: the failure is the
     * fetch's own, not the manager's only while the purgatory is checked at the failure (when this fetch was not
     * watched yet), after which the fetch would start another load and wait for it.
     */
    @Test
    void aFetchWhoseLoadFailsBeforeItIsParkedAnswersTheError() throws Exception {
        List<CompletableFuture<Persister.State>> reads = new java.util.concurrent.CopyOnWriteArrayList<>();
        Persister slow = new NoStatePersister() {
            @Override
            public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
                CompletableFuture<State> read = new CompletableFuture<>();
                reads.add(read);
                return read;
            }
        };
        append(1);
        ShareGroupSettings earliest = new ShareGroupSettings(30_000, 5, 2000, ShareAutoOffsetReset.EARLIEST, false);
        SharePartitionManager loading = new SharePartitionManager(clock, clock::nowMs, groupId -> earliest, slow, tp -> 0, 1000);
        try {
            UUID topicId = topics.get("t").orElseThrow().id();
            ShareFetchWork work = new ShareFetchWork(loading, new ShareLogs(topics, PartitionLeadership.SINGLE_NODE),
                    "g", "m", List.of(new TopicIdPartition(topicId, 0)), TopicRights.ALL, 1, 10_000, 1 << 20,
                    UNLIMITED, Map.of(), Map.of(), Runnable::run, LISTENER);
            assertThat(work.canAnswer()).as("its share partition loading").isFalse();
            assertThat(reads).hasSize(1);

            // The load fails between the handler's first look and its parking of the fetch.
            reads.get(0).completeExceptionally(new LogException(Errors.COORDINATOR_LOAD_IN_PROGRESS, "loading"));
            CompletableFuture<Struct> answer = new CompletableFuture<>();
            loading.fetchPurgatory().tryCompleteElseWatch(new DelayedShareFetch(10_000, work, answer),
                    work.watchKeys());
            clock.advance(10_000); // its MaxWaitMs, had it waited

            assertThat(answer).as("answered").isDone();
            assertThat(new ShareFetchResponseView(answer.get()).responses()).as("not an empty answer").hasSize(1);
            ShareFetchResponseView.PartitionData data = new ShareFetchResponseView(answer.get()).responses().get(0)
                    .partitions().get(0);
            assertThat(data.errorCode()).as("the coordinator's error as Kafka's SharePartition maps it")
                    .isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
            assertThat(reads).as("no other load started for it").hasSize(1);
        } finally {
            loading.close();
        }
    }

    /**
     * The leadership the produce and fetch paths see answers every question as the one it wraps, the interface's
     * defaults included (which replicas it hosts, the epoch check it reads from one state), and tells it of every
     * event: each method, called once on the wrapper, reaches the wrapped leadership as that very call.
     */
    @Test
    void wakingOnNewDataPassesEveryCallToTheLeadershipItWraps() throws Exception {
        List<Method> reached = new CopyOnWriteArrayList<>();
        PartitionLeadership wrapped = (PartitionLeadership) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PartitionLeadership.class}, (proxy, method, args) -> {
                    reached.add(method);
                    return zeroOf(method.getReturnType());
                });
        PartitionLeadership waking = SharePartitionManager.wakingOnNewData(wrapped, manager);
        for (Method method : PartitionLeadership.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            reached.clear();
            Object[] args = Arrays.stream(method.getParameterTypes())
                    .map(type -> type == TopicPartition.class ? new TopicPartition("t", 0) : zeroOf(type)).toArray();
            method.invoke(waking, args);
            assertThat(reached).as(method.getName()).containsExactly(method);
        }
    }

    /** The default value of a type, as a field of it starts: what the wrapped leadership answers and is asked with. */
    private static Object zeroOf(Class<?> type) {
        return type.isPrimitive() && type != void.class ? Array.get(Array.newInstance(type, 1), 0) : null;
    }

    @Test
    void aResetOrForgetAfterTheStopIsAnsweredCoordinatorNotAvailable() throws Exception {
        SharePartitionKey key = new SharePartitionKey("g", topics.get("t").orElseThrow().id(), 0);
        manager.close();
        for (CompletionStage<Void> change : List.of(manager.reset(key, 0, 1), manager.forget(key))) {
            assertThat(change.toCompletableFuture()).failsWithin(0, TimeUnit.SECONDS)
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withCauseInstanceOf(LogException.class);
        }
    }
}
