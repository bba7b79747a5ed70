package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.TestLeadership;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.produce.ProduceHandler;
import io.minibroker.broker.sharegroup.ShareGroupTimings;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionMarker;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.SystemClock;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A cluster broker's coordinator seen from inside, its leadership of the one offsets partition played by the test:
 * it serves groups only once it leads and has loaded the partition, answers a commit only once replicated, and
 * on resigning sends its parked joins to the new coordinator.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterGroupCoordinatorTest {

    private static final TopicPartition OFFSETS = new TopicPartition(OffsetsTopic.NAME, 0);
    private static final String GROUP = "cluster-group";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final long PRODUCER_ID = 300L;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private final Purgatory<DelayedProduce> producePurgatory = ProduceHandler.newPurgatory(1000, SystemClock.INSTANCE);
    private final Purgatory<DelayedFetch> fetchPurgatory = FetchHandler.newPurgatory(1000, SystemClock.INSTANCE);
    /** Whether this node leads the offsets partition; every replica in sync. */
    private volatile boolean leading;
    private final TestLeadership leadership = new TestLeadership(partition -> leading, 3);
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "offsets.topic.num.partitions", "1", "offsets.commit.timeout.ms", "500",
                "group.initial.rebalance.delay.ms", "0"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 3, 1, Map.of(), false);
        assertThat(topics.adopt(OffsetsTopic.NAME, UUID.randomUUID(), 1, Map.of(), Set.of(0))).isEqualTo(Errors.NONE);
        offsetsLog().setReplicatedHighWatermark(0); // replicated: only the test's "followers" move it
        coordinator = GroupCoordinator.inCluster(config, topics, leadership, ClusterMetadata::empty,
                producePurgatory, fetchPurgatory, BrokerClock.system(), ShareGroupTimings.of(config),
                ConsumerGroupTimings.of(config));
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        producePurgatory.close();
        fetchPurgatory.close();
        topics.close();
    }

    @Test
    void noGroupIsServedUntilTheOffsetsPartitionIsLedAndLoaded() throws Exception {
        assertThat(coordinator.coordinatorError(GROUP)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(join("").get().getInt16("ErrorCode")).isEqualTo(Errors.NOT_COORDINATOR.code());
        assertThat(commit(5).get().values()).containsOnly(Errors.NOT_COORDINATOR);
        assertThat(coordinator.heartbeat(GROUP, 1, "someone", null)).isEqualTo(Errors.NOT_COORDINATOR);

        lead(0);
        assertThat(join("").get().getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }

    @Test
    void aCommitIsAnsweredAndVisibleOnlyOnceReplicated() throws Exception {
        lead(0);
        CompletableFuture<Map<TopicPartition, Errors>> committed = commit(7);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        assertThat(committed).as("waiting for the followers").isNotDone();
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();

        replicateAll();
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
        assertThat(coordinator.offsets().all(GROUP).get(new TopicPartition("orders", 0)).offset()).isEqualTo(7);
    }

    @Test
    void aCommitNeverReplicatedGetsCoordinatorNotAvailableAndOneWhoseLeaderResignedNotCoordinator()
            throws Exception {
        lead(0);
        assertThat(commit(7).get().values()).as("after offsets.commit.timeout.ms")
                .containsOnly(Errors.COORDINATOR_NOT_AVAILABLE);

        CompletableFuture<Map<TopicPartition, Errors>> committed = commit(8);
        await(() -> offsetsLog().logEndOffset() == 2, "the commit to be appended");
        leading = false;
        producePurgatory.checkAndComplete(OFFSETS);
        assertThat(committed.get().values()).containsOnly(Errors.NOT_COORDINATOR);
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();
    }

    @Test
    void leadingOnInANewTermKeepsTheGroupsAndTheirParkedJoins() throws Exception {
        lead(0);
        assertThat(join("").get().getInt16("ErrorCode")).as("the first member").isEqualTo(Errors.NONE.code());
        CompletableFuture<Struct> parked = join("");
        assertThat(parked).as("waiting for the first member to rejoin").isNotDone();

        // A reassignment removed a follower: the same leader, a new epoch, and no resignation in between.
        coordinator.onLeading(OFFSETS, 1);
        assertThat(coordinator.coordinatorError(GROUP)).as("not loading again").isEqualTo(Errors.NONE);
        // Another group's commit (the same partition) is appended on the coordinator's thread after whatever the
        // new term queued there.
        CompletableFuture<Map<TopicPartition, Errors>> committed = commit("another-group", 11);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        assertThat(parked).as("the parked join still waits").isNotDone();
        replicateAll();
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
    }

    @Test
    void resigningAnswersParkedJoinsNotCoordinatorAndLeadingAgainReplaysTheCommits() throws Exception {
        lead(0);
        CompletableFuture<Map<TopicPartition, Errors>> committed = commit(9);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        replicateAll();
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
        assertThat(join("").get().getInt16("ErrorCode")).as("the first member").isEqualTo(Errors.NONE.code());
        CompletableFuture<Struct> parked = join("");
        assertThat(parked).as("waiting for the first member to rejoin").isNotDone();

        leading = false;
        coordinator.onResigned(OFFSETS);
        assertThat(coordinator.coordinatorError(GROUP)).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(parked.get(10, TimeUnit.SECONDS).getInt16("ErrorCode")).isEqualTo(Errors.NOT_COORDINATOR.code());
        await(() -> coordinator.offsets().all(GROUP).isEmpty(), "the group's commits to be unloaded");

        lead(1);
        assertThat(coordinator.offsets().all(GROUP).get(new TopicPartition("orders", 0)).offset())
                .as("replayed from the log").isEqualTo(9);
        assertThat(coordinator.group(GROUP)).as("listed as Empty until a member joins")
                .hasValueSatisfying(group -> assertThat(group.state()).isEqualTo(GroupState.EMPTY));
    }

    @Test
    void aCommitReplicatedAfterItsGroupWasDeletedDoesNotComeBackWhenThePartitionIsReplayed() throws Exception {
        lead(0);
        CompletableFuture<Map<TopicPartition, Errors>> committed = commit(4);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        CompletableFuture<Errors> deleted = coordinator.delete(GROUP); // answered once its tombstones replicate
        await(() -> offsetsLog().logEndOffset() > 1, "the tombstones to be appended after the commit");
        replicateAll();
        assertThat(deleted.get(10, TimeUnit.SECONDS)).isEqualTo(Errors.NONE);
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
        assertThat(coordinator.offsets().all(GROUP)).as("its group is gone").isEmpty();

        leading = false;
        coordinator.onResigned(OFFSETS);
        lead(1);
        assertThat(coordinator.offsets().all(GROUP)).as("its tombstone was written after it").isEmpty();
        assertThat(coordinator.group(GROUP)).isEmpty();
    }

    /**
     * As Kafka's runtime reverts a failed append to its last written offset: a consumer group's write refused at its
     * append (NOT_LEADER_OR_FOLLOWER: the leadership moved before the coordinator heard of it) rolls the group back
     * to its last appended write, not to its last replicated one: m1's join, appended and not replicated, stays.
     */
    @Test
    void aConsumerGroupWriteRefusedAtItsAppendRollsBackToTheLastAppendedOne() throws Exception {
        lead(0);
        coordinator.consumerGroupHeartbeat(consumerJoin("m1"));
        await(() -> offsetsLog().logEndOffset() > 0, "m1's join to be appended");
        leading = false;

        assertThat(coordinator.consumerGroupHeartbeat(consumerJoin("m2")).get().error())
                .isEqualTo(Errors.NOT_COORDINATOR);
        ConsumerGroup group = coordinator.consumerGroup(GROUP);
        synchronized (group) {
            assertThat(group.members.keySet()).containsExactly("m1");
            assertThat(group.groupEpoch).isEqualTo(2);
        }

        leading = true;
        replicateAll();
        CompletableFuture<ConsumerGroupHeartbeat.Response> retried = coordinator.consumerGroupHeartbeat(
                consumerJoin("m2"));
        await(() -> !retried.isDone() && offsetsLog().logEndOffset() > offsetsLog().highWatermark(),
                "m2's join to be appended");
        replicateAll();
        assertThat(retried.get().memberEpoch()).as("one bump, by the join that counted").isEqualTo(3);
    }

    /** As Kafka's runtime, a write appended but not replicated in time is answered with its error, not rolled back. */
    @Test
    void aConsumerGroupWriteNotReplicatedInTimeIsNotRolledBack() throws Exception {
        lead(0);
        assertThat(coordinator.consumerGroupHeartbeat(consumerJoin("m1")).get().error())
                .as("after offsets.commit.timeout.ms").isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        ConsumerGroup group = coordinator.consumerGroup(GROUP);
        synchronized (group) {
            assertThat(group.members.keySet()).containsExactly("m1");
        }
    }

    @Test
    void aRecordTheReplayCannotReadDoesNotLeaveThePartitionLoading() throws Exception {
        ByteBuf key = Unpooled.buffer().writeShort(2).writeShort(GROUP.length())
                .writeBytes(GROUP.getBytes(StandardCharsets.UTF_8));
        ByteBuf value = Unpooled.buffer().writeShort(99); // a GroupMetadataValue version nobody writes
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1_000L)
                .append(1_000L, ByteBufUtil.getBytes(key), ByteBufUtil.getBytes(value), List.of()).build();
        try {
            offsetsLog().append(batch, 0);
        } finally {
            batch.release();
        }

        lead(0); // waits for the group to be served
        assertThat(join("").get().getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
    }

    @Test
    void aTransactionalCommitIsPendingUntilItsMarkerAndStillPendingAtTheNextLeader() throws Exception {
        assertThat(Failures.logError(catchThrowable(() ->
                coordinator.startTransactionVerification(GROUP, PRODUCER_ID, (short) 0, false).join()), Errors.NONE))
                .as("not led here").isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(txnCommit(10, VerificationGuard.SENTINEL).get().values()).as("not led here")
                .containsOnly(Errors.NOT_COORDINATOR);
        lead(0);
        CompletableFuture<Map<TopicPartition, Errors>> committed = txnCommit(11);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        replicateAll();
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).isTrue();

        leading = false;
        coordinator.onResigned(OFFSETS);
        await(() -> !coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0), "the unload");
        lead(1);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).as("replayed").isTrue();
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();

        marker(TransactionResult.COMMIT);
        assertThat(coordinator.offsets().all(GROUP).get(ORDERS_0).offset()).isEqualTo(11);

        leading = false;
        coordinator.onResigned(OFFSETS);
        lead(2);
        assertThat(coordinator.offsets().all(GROUP).get(ORDERS_0).offset()).as("its marker replayed").isEqualTo(11);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).isFalse();
    }

    @Test
    void aMarkerThatLandsBeforeATransactionalCommitIsReplicatedEndsItToo() throws Exception {
        lead(0);
        CompletableFuture<Map<TopicPartition, Errors>> aborted = txnCommit(12);
        await(() -> offsetsLog().logEndOffset() == 1, "the commit to be appended");
        marker(TransactionResult.ABORT); // e.g. the coordinator aborting a transaction that timed out
        replicateAll();
        assertThat(aborted.get().values()).containsOnly(Errors.NONE);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).isFalse();
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();

        CompletableFuture<Map<TopicPartition, Errors>> committed = txnCommit(13);
        await(() -> offsetsLog().logEndOffset() == 3, "the next commit to be appended");
        marker(TransactionResult.COMMIT);
        replicateAll();
        assertThat(committed.get().values()).containsOnly(Errors.NONE);
        assertThat(coordinator.offsets().all(GROUP).get(ORDERS_0).offset()).isEqualTo(13);
        assertThat(coordinator.offsets().hasPendingTransactionalOffset(GROUP, ORDERS_0)).isFalse();
    }

    /** A TxnOffsetCommit's write, under a verification of its producer started now, as its handler starts one. */
    private CompletableFuture<Map<TopicPartition, Errors>> txnCommit(long offset) throws Exception {
        return txnCommit(offset, coordinator.startTransactionVerification(GROUP, PRODUCER_ID, (short) 0, false).get());
    }

    /** A TxnOffsetCommit's write, presenting {@code guard}. */
    private CompletableFuture<Map<TopicPartition, Errors>> txnCommit(long offset, VerificationGuard guard) {
        return coordinator.commitTransactionalOffsets(new OffsetCommit(GROUP, -1, "", null,
                Map.of(ORDERS_0, new OffsetStore.CommittedOffset(offset, -1, "")), (short) 4,
                new OffsetCommit.Transaction(PRODUCER_ID, (short) 0, guard)));
    }

    /** The producer's marker appended to the offsets partition, and told to the coordinator. */
    private void marker(TransactionResult result) throws Exception {
        new FakeMarkerAppender(topics, List.of(coordinator))
                .append(new TransactionMarker(PRODUCER_ID, (short) 0, 0, result, (short) 0), List.of(OFFSETS))
                .toCompletableFuture().get();
    }

    private void lead(int epoch) {
        leading = true;
        coordinator.onLeading(OFFSETS, epoch);
        await(() -> coordinator.coordinatorError(GROUP) == Errors.NONE, "the offsets partition to load");
    }

    /** Every follower caught up: the high watermark moves to the log end, as their fetches would move it. */
    private void replicateAll() {
        offsetsLog().advanceReplicatedHighWatermark(offsetsLog().logEndOffset());
        producePurgatory.checkAndComplete(OFFSETS);
    }

    private CompletableFuture<Map<TopicPartition, Errors>> commit(long offset) {
        return commit(GROUP, offset);
    }

    /** A simple commit (no generation) of the group's offset of orders-0. */
    private CompletableFuture<Map<TopicPartition, Errors>> commit(String groupId, long offset) {
        Map<TopicPartition, OffsetStore.CommittedOffset> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("orders", 0), new OffsetStore.CommittedOffset(offset, -1, ""));
        return coordinator.commitOffsets(new OffsetCommit(groupId, -1, "", null, offsets, (short) 9));
    }

    /** A ConsumerGroupHeartbeat v1 joining the group, subscribed to orders. */
    private static ConsumerGroupHeartbeat.Request consumerJoin(String memberId) {
        return new ConsumerGroupHeartbeat.Request(GROUP, memberId, 0, null, null, 30_000, List.of("orders"), null,
                null, Map.of(), "client", "/127.0.0.1", (short) 1, topic -> true);
    }

    /** A JoinGroup v3 (no MEMBER_ID_REQUIRED round) of a consumer with one protocol. */
    private CompletableFuture<Struct> join(String memberId) {
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        protocols.put("range", new byte[0]);
        return coordinator.join(new JoinRequest(GROUP, memberId, null, "client", "/127.0.0.1",
                10_000, 30_000, "consumer", protocols, (short) 3));
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }
}
