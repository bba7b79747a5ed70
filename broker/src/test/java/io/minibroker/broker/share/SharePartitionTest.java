package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A share partition's states, locks, delivery counts and start offset, on a manual clock. */
class SharePartitionTest {

    private static final SharePartitionKey KEY = new SharePartitionKey("g", UUID.randomUUID(), 0);
    private static final ShareGroupSettings SETTINGS = new ShareGroupSettings(30_000, 3, 100, ShareAutoOffsetReset.LATEST, false);

    private final ManualClock clock = new ManualClock();

    private SharePartition partition(ShareGroupSettings settings) {
        return SharePartition.startingAt(KEY, clock, settings, 0);
    }

    /** Batches of single records 0..n-1, as a log without batching holds them. */
    private static List<long[]> records(long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to).mapToObj(o -> new long[] {o, o}).toList();
    }

    /** Acquires as a kafka-clients 4.3 consumer asks by default: whole batches, BatchSize = MaxRecords. */
    private static List<AcquiredRecords> acquire(SharePartition partition, String member, int maxRecords,
                                                 List<long[]> log) {
        return partition.acquire(member, ShareAcquireMode.BATCH_OPTIMIZED, maxRecords, maxRecords, log,
                offset -> false);
    }

    private static Acknowledgement ack(long first, long last, AcknowledgeType type) {
        return new Acknowledgement(first, last, List.of(type.id()));
    }

    /** Acknowledges as SharePartitionManager does: the state is written (here, not), then the start offset moves. */
    private static AcknowledgeResult acknowledge(SharePartition partition, String member,
                                                 List<Acknowledgement> acknowledgements) {
        AcknowledgeResult result = partition.acknowledge(member, acknowledgements);
        partition.moveStartOffset();
        return result;
    }

    /**
     * The start offset stays until {@link SharePartition#moveStartOffset}, so that the state written for an
     * acknowledgement keeps it, with the records just acknowledged above it, as Kafka's SharePartition writes it.
     */
    @Test
    void anAcknowledgementLeavesTheStartOffsetToBeMovedOnceItsStateIsTaken() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 100, records(0, 9));
        assertThat(partition.acknowledge("a", List.of(ack(0, 9, AcknowledgeType.ACCEPT))).error())
                .isEqualTo(Errors.NONE);
        assertThat(partition.snapshot()).isEqualTo(new ShareStateSnapshot(0,
                List.of(new ShareStateSnapshot.StateBatch(0, 9, RecordState.ACKNOWLEDGED, 1))));

        partition.moveStartOffset();
        assertThat(partition.startOffset()).isEqualTo(10);
        assertThat(partition.snapshot()).isEqualTo(new ShareStateSnapshot(10, List.of()));
    }

    @Test
    void twoMembersAcquireDistinctRecords() {
        SharePartition partition = partition(SETTINGS);
        List<long[]> log = records(0, 9);
        assertThat(acquire(partition, "a", 4, log)).containsExactly(new AcquiredRecords(0, 3, 1));
        assertThat(acquire(partition, "b", 100, log)).containsExactly(new AcquiredRecords(4, 9, 1));
        assertThat(acquire(partition, "c", 100, log)).isEmpty();
        assertThat(partition.acquiredCount()).isEqualTo(10);
        assertThat(partition.endOffset()).isEqualTo(10);
    }

    @Test
    void anExpiredLockMakesTheRecordsAvailableAgainWithTheirCountRaised() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 100, records(0, 4));
        clock.advance(29_999);
        assertThat(partition.expireLocks()).isFalse();
        assertThat(acquire(partition, "b", 100, records(0, 4))).isEmpty();
        clock.advance(1);
        assertThat(partition.nextFetchOffset()).isZero();
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
        assertThat(acquire(partition, "b", 100, records(0, 4))).containsExactly(new AcquiredRecords(0, 4, 2));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 4, AcknowledgeType.ACCEPT))).error())
                .isEqualTo(Errors.INVALID_RECORD_STATE); // its locks went: the records are b's now
    }

    @Test
    void aRecordDeliveredUpToTheLimitIsArchivedAndTheStartOffsetPassesIt() {
        SharePartition partition = partition(SETTINGS);
        for (int delivery = 1; delivery <= 2; delivery++) {
            assertThat(acquire(partition, "a", 100, records(0, 1)))
                    .containsExactly(new AcquiredRecords(0, 1, delivery));
            assertThat(acknowledge(partition, "a", List.of(ack(0, 1, AcknowledgeType.RELEASE))).error())
                    .isEqualTo(Errors.NONE);
        }
        // each record's last delivery comes alone
        assertThat(acquire(partition, "a", 100, records(0, 1))).containsExactly(new AcquiredRecords(0, 0, 3));
        assertThat(acquire(partition, "a", 100, records(0, 1))).containsExactly(new AcquiredRecords(1, 1, 3));
        clock.advance(30_000); // the last ones end by lock expiry: the same limit applies
        assertThat(partition.nextFetchOffset()).isEqualTo(2);
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.ARCHIVED);
        assertThat(partition.startOffset()).isEqualTo(2);
        assertThat(acquire(partition, "a", 100, records(0, 1))).isEmpty();
    }

    @Test
    void acceptRejectAndReleaseMoveTheStartOffsetOnlyOverFinishedRecords() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 100, records(0, 5));
        Acknowledgement mixed = new Acknowledgement(0, 5, List.of(AcknowledgeType.ACCEPT.id(),
                AcknowledgeType.REJECT.id(), AcknowledgeType.RELEASE.id(), AcknowledgeType.ACCEPT.id(),
                AcknowledgeType.GAP.id(), AcknowledgeType.ACCEPT.id()));
        assertThat(acknowledge(partition, "a", List.of(mixed)).error()).isEqualTo(Errors.NONE);
        assertThat(partition.startOffset()).isEqualTo(2); // 2 was released: it is delivered again
        assertThat(partition.stateOf(1)).isEqualTo(RecordState.ARCHIVED);
        assertThat(partition.stateOf(3)).isEqualTo(RecordState.ACKNOWLEDGED);
        assertThat(partition.stateOf(4)).isEqualTo(RecordState.ARCHIVED);
        assertThat(acquire(partition, "b", 100, records(2, 7))).containsExactly(new AcquiredRecords(2, 2, 2),
                new AcquiredRecords(6, 7, 1));
        assertThat(acknowledge(partition, "b", List.of(ack(2, 2, AcknowledgeType.ACCEPT),
                ack(6, 7, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.startOffset()).isEqualTo(8);
        assertThat(partition.endOffset()).isEqualTo(8);
    }

    @Test
    void acknowledgementsAreAllOrNothingAndOnlyForTheHoldersRecords() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 2, records(0, 3));
        acquire(partition, "b", 2, records(0, 3));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 1, AcknowledgeType.ACCEPT),
                ack(2, 2, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.INVALID_RECORD_STATE);
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.ACQUIRED); // nothing applied
        assertThat(acknowledge(partition, "a", List.of(ack(3, 5, AcknowledgeType.ACCEPT))).error())
                .isEqualTo(Errors.INVALID_REQUEST); // past every record acquired, as Kafka's "Batch record not found"
        assertThat(acknowledge(partition, "a", List.of(ack(5, 5, AcknowledgeType.ACCEPT))).error())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(acknowledge(partition, "a", List.of(new Acknowledgement(0, 1, List.of((byte) 9)))).error())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(acknowledge(partition, "a", List.of(new Acknowledgement(1, 0, List.of((byte) 1)))).error())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 1, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void acknowledgementsBelowTheStartOffsetAreSkippedAndAStraddlingOneAppliesFromTheStart() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 10, records(0, 9));
        assertThat(partition.moveStartTo(5)).isTrue(); // DeleteRecords: the log starts at 5
        assertThat(acknowledge(partition, "a", List.of(ack(0, 2, AcknowledgeType.ACCEPT),
                ack(3, 9, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.stateOf(9)).isEqualTo(RecordState.ARCHIVED); // below the start now: done with
        assertThat(partition.startOffset()).isEqualTo(10);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 9, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 10, AcknowledgeType.ACCEPT))).error())
                .isEqualTo(Errors.INVALID_RECORD_STATE); // nothing in flight
    }

    @Test
    void overlappingOrOutOfOrderBatchesAreInvalidRequestsAndTouchingOnesFindTheSharedOffsetAcknowledged() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 10, records(0, 9));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 4, AcknowledgeType.ACCEPT),
                ack(3, 6, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(acknowledge(partition, "a", List.of(ack(5, 6, AcknowledgeType.ACCEPT),
                ack(0, 1, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        // Kafka's request check is firstOffset < the previous batch's lastOffset, so a shared offset passes it; its
        // share partition then finds that offset acknowledged by the first batch, no longer acquired
        assertThat(acknowledge(partition, "a", List.of(ack(0, 4, AcknowledgeType.ACCEPT),
                ack(4, 9, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.INVALID_RECORD_STATE);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 4, AcknowledgeType.RENEW),
                ack(4, 9, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE); // a renewed lock is still acquired
        assertThat(partition.stateOf(4)).isEqualTo(RecordState.ACKNOWLEDGED);
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
    }

    @Test
    void theWindowStopsAtTheRecordLockLimitUntilTheStartOffsetMoves() {
        SharePartition partition = partition(new ShareGroupSettings(30_000, 5, 100, ShareAutoOffsetReset.LATEST, false));
        assertThat(acquire(partition, "a", 1000, records(0, 199))).containsExactly(new AcquiredRecords(0, 99, 1));
        assertThat(partition.canAcquire(200)).isFalse();
        assertThat(acknowledge(partition, "a", List.of(ack(0, 9, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.canAcquire(200)).isTrue();
        assertThat(acquire(partition, "b", 1000, records(100, 199))).containsExactly(new AcquiredRecords(100, 109, 1));
    }

    @Test
    void batchOptimizedAcquisitionKeepsTheLastBatchWholeAndRecordLimitCutsIt() {
        SharePartition partition = partition(SETTINGS);
        List<long[]> oneBatch = List.<long[]>of(new long[] {0, 9});
        assertThat(partition.acquire("a", ShareAcquireMode.BATCH_OPTIMIZED, 5, 5, oneBatch, offset -> false))
                .containsExactly(new AcquiredRecords(0, 9, 1));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 9, AcknowledgeType.RELEASE))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.acquire("b", ShareAcquireMode.RECORD_LIMIT, 5, 5, oneBatch, offset -> false))
                .containsExactly(new AcquiredRecords(0, 4, 2));
        assertThat(partition.acquire("c", ShareAcquireMode.RECORD_LIMIT, 5, 5, oneBatch, offset -> false))
                .containsExactly(new AcquiredRecords(5, 9, 2));
    }

    @Test
    void recordsNeverDeliveredAreSplitIntoRunsOfAboutBatchSizeAtBatchBoundaries() {
        SharePartition partition = partition(SETTINGS);
        List<long[]> log = List.of(new long[] {0, 3}, new long[] {4, 7}, new long[] {8, 11});
        // as Kafka's createBatches: a new run at the first batch starting BatchSize or more past the run's start
        assertThat(partition.acquire("a", ShareAcquireMode.BATCH_OPTIMIZED, 5, 12, log, offset -> false))
                .containsExactly(new AcquiredRecords(0, 7, 1), new AcquiredRecords(8, 11, 1));
    }

    @Test
    void aBatchAcquiredWholeMayTakeTheWindowPastItsLimitAfterWhichOnlyReleasedRecordsAreAcquired() {
        SharePartition partition = partition(new ShareGroupSettings(30_000, 5, 10, ShareAutoOffsetReset.LATEST, false));
        List<long[]> log = List.of(new long[] {0, 7}, new long[] {8, 15}, new long[] {16, 23});
        assertThat(partition.acquire("a", ShareAcquireMode.BATCH_OPTIMIZED, 100, 100, log, offset -> false))
                .containsExactly(new AcquiredRecords(0, 15, 1));
        assertThat(partition.canAcquire(24)).isFalse();
        assertThat(acknowledge(partition, "a", List.of(ack(2, 3, AcknowledgeType.RELEASE))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.acquire("b", ShareAcquireMode.BATCH_OPTIMIZED, 100, 100, log, offset -> false))
                .containsExactly(new AcquiredRecords(2, 3, 2));
    }

    @Test
    void recordsDeliveredOftenComeInSmallerFetchesAndALastDeliveryComesAlone() {
        SharePartition partition = partition(new ShareGroupSettings(30_000, 5, 100, ShareAutoOffsetReset.LATEST, false));
        List<long[]> oneBatch = List.<long[]>of(new long[] {0, 7});
        for (int delivery = 1; delivery <= 3; delivery++) {
            assertThat(acquire(partition, "a", 100, oneBatch)).containsExactly(new AcquiredRecords(0, 7, delivery));
            assertThat(acknowledge(partition, "a", List.of(ack(0, 7, AcknowledgeType.RELEASE))).error())
                    .isEqualTo(Errors.NONE);
        }
        // from the third delivery (half the limit of 5), as Kafka 4.3.1: half the batch's 8, then a quarter, ...
        assertThat(acquire(partition, "a", 100, oneBatch)).containsExactly(new AcquiredRecords(0, 3, 4));
        assertThat(acquire(partition, "b", 100, oneBatch)).containsExactly(new AcquiredRecords(4, 7, 4));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 3, AcknowledgeType.RELEASE))).error()).isEqualTo(Errors.NONE);
        assertThat(acquire(partition, "a", 100, oneBatch)).containsExactly(new AcquiredRecords(0, 0, 5));
    }

    @Test
    void aRecordOnItsLastDeliveryIsNotAcquiredAfterOthers() {
        SharePartition partition = partition(SETTINGS); // a limit of 3: the third delivery is the last
        List<long[]> log = List.of(new long[] {0, 3}, new long[] {4, 7});
        assertThat(acquire(partition, "a", 100, log)).containsExactly(new AcquiredRecords(0, 7, 1));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 7, AcknowledgeType.RELEASE))).error()).isEqualTo(Errors.NONE);
        assertThat(acquire(partition, "a", 100, log)).containsExactly(new AcquiredRecords(0, 7, 2));
        assertThat(acknowledge(partition, "a", List.of(ack(0, 7, AcknowledgeType.RELEASE))).error()).isEqualTo(Errors.NONE);
        // throttled to half of its batch (2 of 4), but offset 0's is its last delivery: it goes alone
        assertThat(acquire(partition, "a", 100, log)).containsExactly(new AcquiredRecords(0, 0, 3));
        assertThat(acquire(partition, "b", 100, log)).containsExactly(new AcquiredRecords(1, 1, 3));
    }

    @Test
    void renewKeepsTheLockForAnotherDuration() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 10, records(0, 0));
        clock.advance(20_000);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 0, AcknowledgeType.RENEW))).error()).isEqualTo(Errors.NONE);
        clock.advance(20_000);
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.ACQUIRED);
        assertThat(partition.expireLocks()).isFalse();
        clock.advance(10_000);
        assertThat(partition.expireLocks()).isTrue();
    }

    @Test
    void aLockRenewedAfterTheLockDurationShrankExpiresAtItsNewDeadline() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 10, records(0, 0)); // locked until 30 000
        partition.updateSettings(new ShareGroupSettings(5_000, 3, 100, ShareAutoOffsetReset.LATEST, false));
        clock.advance(1_000);
        assertThat(acknowledge(partition, "a", List.of(ack(0, 0, AcknowledgeType.RENEW))).error()).isEqualTo(Errors.NONE);
        clock.advance(4_999);
        assertThat(partition.expireLocks()).isFalse();
        clock.advance(1);
        assertThat(partition.expireLocks()).isTrue();
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
    }

    @Test
    void aMemberLeavingReleasesOnlyItsRecords() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 2, records(0, 3));
        acquire(partition, "b", 2, records(0, 3));
        assertThat(partition.releaseAll("a")).isTrue();
        assertThat(partition.stateOf(0)).isEqualTo(RecordState.AVAILABLE);
        assertThat(partition.stateOf(2)).isEqualTo(RecordState.ACQUIRED);
        assertThat(acquire(partition, "b", 10, records(0, 3))).containsExactly(new AcquiredRecords(0, 1, 2));
    }

    @Test
    void compactedOffsetsBetweenBatchesAreArchivedAndTheLogStartMovesTheStart() {
        SharePartition partition = partition(SETTINGS);
        assertThat(acquire(partition, "a", 10, List.of(new long[] {0, 1}, new long[] {5, 6})))
                .containsExactly(new AcquiredRecords(0, 1, 1), new AcquiredRecords(5, 6, 1));
        assertThat(partition.stateOf(3)).isEqualTo(RecordState.ARCHIVED);
        assertThat(partition.moveStartTo(6)).isTrue();
        assertThat(partition.startOffset()).isEqualTo(6);
        assertThat(acknowledge(partition, "a", List.of(ack(6, 6, AcknowledgeType.ACCEPT))).error()).isEqualTo(Errors.NONE);
        assertThat(partition.startOffset()).isEqualTo(7);
    }

    @Test
    void aSnapshotRestoresStatesAndCountsWithLocksDropped() {
        SharePartition partition = partition(SETTINGS);
        acquire(partition, "a", 10, records(0, 4));
        acknowledge(partition, "a", List.of(ack(0, 0, AcknowledgeType.ACCEPT), ack(2, 2, AcknowledgeType.REJECT)));
        ShareStateSnapshot snapshot = partition.snapshot();
        SharePartition restored = SharePartition.restored(KEY, clock, SETTINGS, snapshot);
        assertThat(restored.startOffset()).isEqualTo(1);
        assertThat(restored.endOffset()).isEqualTo(5);
        assertThat(restored.stateOf(1)).isEqualTo(RecordState.AVAILABLE);
        assertThat(restored.stateOf(2)).isEqualTo(RecordState.ARCHIVED);
        assertThat(acquire(restored, "b", 10, records(0, 6))).containsExactly(new AcquiredRecords(1, 1, 2),
                new AcquiredRecords(3, 4, 2), new AcquiredRecords(5, 6, 1));
    }
}
