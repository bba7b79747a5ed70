package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionMarker;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Offsets committed in transactions (TxnOffsetCommit) on a single node: pending until their producer's marker lands
 * on the group's partition of {@code __consumer_offsets}, committed or dropped then by Kafka's rules, and rebuilt
 * exactly from the log after a restart. The markers are appended by {@link FakeMarkerAppender}, standing in for the
 * log side's appender.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionalOffsetsTest {

    private static final String GROUP = "g";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final long P1 = 1001L;
    private static final long P2 = 1002L;

    @TempDir
    Path logDir;
    private BrokerConfig config;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;
    private FakeMarkerAppender markers;

    @BeforeEach
    void start() throws Exception {
        config = BrokerConfig.of(Map.of("log.dir", logDir.toString(),
                "offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("orders", 3, 1, Map.of(), false);
        open();
    }

    private void open() {
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
        markers = new FakeMarkerAppender(topics, List.of(coordinator));
    }

    /** Closes the coordinator and the logs and opens both again on the same directory, as a restart does. */
    private void restart() throws Exception {
        coordinator.close();
        topics.close();
        topics = TopicRegistry.open(config, Clock.systemUTC());
        open();
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private void txnCommit(String groupId, long producerId, TopicPartition partition, long offset) throws Exception {
        OffsetCommit commit = new OffsetCommit(groupId, -1, "", null,
                Map.of(partition, new OffsetStore.CommittedOffset(offset, -1, "")), (short) 4,
                new OffsetCommit.Transaction(producerId, (short) 0,
                        coordinator.startTransactionVerification(groupId, producerId, (short) 0, false).get()));
        assertThat(coordinator.commitTransactionalOffsets(commit).get()).containsEntry(partition, Errors.NONE);
    }

    private void plainCommit(String groupId, TopicPartition partition, long offset) throws Exception {
        OffsetCommit commit = new OffsetCommit(groupId, -1, "", null,
                Map.of(partition, new OffsetStore.CommittedOffset(offset, -1, "")), (short) 9);
        assertThat(coordinator.commitOffsets(commit).get()).containsEntry(partition, Errors.NONE);
    }

    private void end(String groupId, long producerId, TransactionResult result) throws Exception {
        TopicPartition offsetsPartition = new TopicPartition(OffsetsTopic.NAME,
                coordinator.offsets().partitionFor(groupId));
        markers.append(new TransactionMarker(producerId, (short) 0, 0, result, (short) 0), List.of(offsetsPartition))
                .toCompletableFuture().get();
    }

    private Long committed(String groupId, TopicPartition partition) {
        OffsetStore.CommittedOffset offset = coordinator.offsets().all(groupId).get(partition);
        return offset == null ? null : offset.offset();
    }

    private boolean pending(String groupId, TopicPartition partition) {
        return coordinator.offsets().hasPendingTransactionalOffset(groupId, partition);
    }

    @Test
    void aTransactionalOffsetIsInvisibleUntilTheCommitMarker() throws Exception {
        txnCommit(GROUP, P1, ORDERS_0, 10);
        assertThat(committed(GROUP, ORDERS_0)).as("pending, not committed").isNull();
        assertThat(pending(GROUP, ORDERS_0)).isTrue();

        end(GROUP, P1, TransactionResult.COMMIT);

        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(10L);
        assertThat(pending(GROUP, ORDERS_0)).isFalse();
    }

    @Test
    void anAbortDropsThePendingOffsetAndKeepsTheCommittedOne() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_0, 10);

        end(GROUP, P1, TransactionResult.ABORT);

        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(5L);
        assertThat(pending(GROUP, ORDERS_0)).isFalse();
    }

    @Test
    void aLaterTransactionalCommitOfTheSameProducerReplacesItsPendingOne() throws Exception {
        txnCommit(GROUP, P1, ORDERS_0, 10);
        txnCommit(GROUP, P1, ORDERS_0, 12);
        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(12L);
    }

    @Test
    void aPlainCommitWrittenAfterTheTransactionalOneWinsWhenTheTransactionCommits() throws Exception {
        txnCommit(GROUP, P1, ORDERS_0, 10);
        plainCommit(GROUP, ORDERS_0, 7); // its record comes after the transactional one
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(7L);

        end(GROUP, P1, TransactionResult.COMMIT);

        assertThat(committed(GROUP, ORDERS_0)).as("Kafka keeps the latest record of a mix").isEqualTo(7L);
    }

    @Test
    void twoProducersAndAPlainCommitInterleaved() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_0, 10);
        txnCommit(GROUP, P2, ORDERS_0, 20);
        txnCommit(GROUP, P2, ORDERS_1, 21);

        end(GROUP, P2, TransactionResult.COMMIT);
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(20L);
        assertThat(committed(GROUP, ORDERS_1)).isEqualTo(21L);
        assertThat(pending(GROUP, ORDERS_0)).as("P1's is still open").isTrue();
        assertThat(pending(GROUP, ORDERS_1)).isFalse();

        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(committed(GROUP, ORDERS_0)).as("P1's record is older than P2's committed one").isEqualTo(20L);
        assertThat(pending(GROUP, ORDERS_0)).isFalse();

        txnCommit(GROUP, P1, ORDERS_0, 30);
        plainCommit(GROUP, ORDERS_1, 25);
        end(GROUP, P1, TransactionResult.ABORT);
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(20L);
        assertThat(committed(GROUP, ORDERS_1)).isEqualTo(25L);
    }

    @Test
    void aMarkerEndsOnlyTheGroupsOfItsOwnPartitionOfTheOffsetsTopic() throws Exception {
        String other = otherPartitionGroup();
        txnCommit(GROUP, P1, ORDERS_0, 10);
        txnCommit(other, P1, ORDERS_0, 11);

        end(GROUP, P1, TransactionResult.COMMIT);

        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(10L);
        assertThat(committed(other, ORDERS_0)).as("its marker has not landed yet").isNull();
        assertThat(pending(other, ORDERS_0)).isTrue();

        end(other, P1, TransactionResult.COMMIT);
        assertThat(committed(other, ORDERS_0)).isEqualTo(11L);
    }

    /** A group whose records go to another partition of the offsets topic than {@link #GROUP}'s. */
    private String otherPartitionGroup() {
        int partition = coordinator.offsets().partitionFor(GROUP);
        for (int i = 0; ; i++) {
            if (coordinator.offsets().partitionFor("other-" + i) != partition) {
                return "other-" + i;
            }
        }
    }

    @Test
    void aRestartRebuildsPendingCommittedAndAbortedTransactionsFromTheLog() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_0, 10); // left open
        txnCommit(GROUP, P2, ORDERS_1, 21); // committed
        end(GROUP, P2, TransactionResult.COMMIT);
        txnCommit(GROUP, P2, ORDERS_1, 40); // P2's next transaction, aborted
        end(GROUP, P2, TransactionResult.ABORT);
        txnCommit("only-pending", P2, ORDERS_0, 3); // a group with nothing but an open transaction

        restart();

        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(5L);
        assertThat(pending(GROUP, ORDERS_0)).as("P1's transaction is still open").isTrue();
        assertThat(committed(GROUP, ORDERS_1)).isEqualTo(21L);
        assertThat(pending(GROUP, ORDERS_1)).isFalse();
        assertThat(coordinator.group("only-pending")).as("a replayed commit creates its group").isPresent();
        assertThat(pending("only-pending", ORDERS_0)).isTrue();

        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(10L);

        restart();
        assertThat(committed(GROUP, ORDERS_0)).as("the marker is in the log now").isEqualTo(10L);
        assertThat(pending(GROUP, ORDERS_0)).isFalse();
    }

    @Test
    void deletingAGroupWithAPendingOffsetDeletesItAndItsCommitMarkerBringsNothingBack() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_1, 10);

        assertThat(coordinator.delete(GROUP).get()).as("Kafka deletes an Empty group whatever is pending")
                .isEqualTo(Errors.NONE);
        assertThat(pending(GROUP, ORDERS_1)).isFalse();

        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();

        restart();
        assertThat(coordinator.offsets().all(GROUP)).as("the tombstones came after the pending record").isEmpty();
        assertThat(coordinator.group(GROUP)).isEmpty();
    }

    @Test
    void offsetDeleteTombstonesAPendingOffset() throws Exception {
        txnCommit(GROUP, P1, ORDERS_0, 10);

        OffsetDeletion deletion = coordinator.deleteOffsets(GROUP, List.of(ORDERS_0)).get();
        assertThat(deletion.error()).isEqualTo(Errors.NONE);
        assertThat(pending(GROUP, ORDERS_0)).isFalse();

        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(committed(GROUP, ORDERS_0)).isNull();
        restart();
        assertThat(committed(GROUP, ORDERS_0)).isNull();
    }

    /** As Kafka's onTopicsDeleted, which tombstones the pending transactional offsets of the topic too. */
    @Test
    void aDeletedTopicsPendingOffsetIsTombstonedAndItsCommitMarkerBringsNothingBack() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_1, 10);

        assertThat(coordinator.deleteCommitsOfTopics(Map.of("orders", new UUID(0, 1))).get()).isEqualTo(2);
        assertThat(pending(GROUP, ORDERS_1)).isFalse();

        end(GROUP, P1, TransactionResult.COMMIT);
        assertThat(coordinator.offsets().all(GROUP)).isEmpty();
        restart();
        assertThat(coordinator.offsets().all(GROUP)).as("the tombstones came after the pending record").isEmpty();
        assertThat(pending(GROUP, ORDERS_1)).isFalse();
    }

    @Test
    void expiryKeepsAnOffsetWithAPendingTransactionalOneAndTheGroupWhileATransactionIsOpen() throws Exception {
        plainCommit(GROUP, ORDERS_0, 5);
        txnCommit(GROUP, P1, ORDERS_0, 10);
        long muchLater = System.currentTimeMillis() + TimeUnit.DAYS.toMillis(30);

        assertThat(coordinator.expireOffsets(muchLater).get()).isZero();
        assertThat(committed(GROUP, ORDERS_0)).isEqualTo(5L);
        assertThat(coordinator.group(GROUP)).isPresent();

        end(GROUP, P1, TransactionResult.ABORT);
        assertThat(coordinator.expireOffsets(muchLater).get()).isEqualTo(1);
        assertThat(coordinator.group(GROUP)).as("Empty, no offsets, no open transaction").isEmpty();
    }
}
