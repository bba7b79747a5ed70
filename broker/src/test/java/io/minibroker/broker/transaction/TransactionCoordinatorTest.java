package io.minibroker.broker.transaction;

import com.google.re2j.Pattern;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.minibroker.broker.transaction.TransactionState.COMPLETE_ABORT;
import static io.minibroker.broker.transaction.TransactionState.COMPLETE_COMMIT;
import static io.minibroker.broker.transaction.TransactionState.EMPTY;
import static io.minibroker.broker.transaction.TransactionState.ONGOING;
import static io.minibroker.broker.transaction.TransactionState.PREPARE_ABORT;
import static io.minibroker.broker.transaction.TransactionState.PREPARE_COMMIT;
import static org.assertj.core.api.Assertions.assertThat;

/** The coordinator's state machine over an in-memory log and a fake marker appender, on a manual clock. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransactionCoordinatorTest {

    private static final String ID = "payments";
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    private static final int TIMEOUT_MS = 60_000;
    private static final TransactionConfig CONFIG = new TransactionConfig(900_000, 604_800_000L, 10_000, 3_600_000,
            (short) 2);

    private final ManualClock clock = new ManualClock();
    private final InMemoryTransactionLog log = new InMemoryTransactionLog(50);
    private final FakeMarkerAppender markers = new FakeMarkerAppender();
    private final AtomicLong producerIds = new AtomicLong(1000);
    private final BackoffTimer backoffs = new BackoffTimer(BrokerClock.manual(clock));
    private TransactionCoordinator coordinator;

    @BeforeEach
    void start() {
        coordinator = newCoordinator();
    }

    @AfterEach
    void stop() throws InterruptedException {
        coordinator.close();
        backoffs.close();
    }

    private TransactionCoordinator newCoordinator() {
        return newCoordinator(CONFIG);
    }

    private TransactionCoordinator newCoordinator(TransactionConfig config) {
        TransactionCoordinator started = new TransactionCoordinator(log, markers, producerIds::getAndIncrement,
                config, BrokerClock.manual(clock), backoffs);
        started.loadAll();
        // Its partitions answer COORDINATOR_LOAD_IN_PROGRESS until replayed.
        await(() -> get(started.describe(List.of(ID))).get(0).error() != Errors.COORDINATOR_LOAD_IN_PROGRESS);
        return started;
    }

    // ------------------------------------------------------------------------------------------ InitProducerId

    @Test
    void aNewIdGetsAProducerIdWithEpoch0AndEachInitFencesTheInstanceBefore() {
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 0));
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 1));
        assertThat(log.statesOf(ID)).containsExactly(EMPTY, EMPTY);
        assertThat(describe().timeoutMs()).isEqualTo(TIMEOUT_MS);
    }

    @Test
    void aTimeoutAboveTheMaximumOrAnEmptyIdIsRefused() {
        assertThat(get(coordinator.initProducerId(ID, 900_001, -1, (short) -1)).error())
                .isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(get(coordinator.initProducerId(ID, 0, -1, (short) -1)).error())
                .isEqualTo(Errors.INVALID_TRANSACTION_TIMEOUT);
        assertThat(get(coordinator.initProducerId("", TIMEOUT_MS, -1, (short) -1)).error())
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(log.records).isEmpty();
    }

    @Test
    void kip360BumpsTheNamedEpochAnswersARetryAlikeAndFencesAnyOther() {
        init(-1, (short) -1); // 1000/0
        assertThat(init(1000, (short) 0)).isEqualTo(ok(1000, 1));
        assertThat(init(1000, (short) 0)).isEqualTo(ok(1000, 1)); // a retry of that bump
        assertThat(init(1000, (short) 5).error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(init(77, (short) 1).error()).isEqualTo(Errors.PRODUCER_FENCED);
    }

    @Test
    void aWriteThatFailsIsTheCoordinatorsErrorAndLeavesNoState() {
        log.failWrites = Errors.NOT_LEADER_OR_FOLLOWER;
        assertThat(init(-1, (short) -1).error()).isEqualTo(Errors.NOT_COORDINATOR);
        log.failWrites = Errors.NOT_ENOUGH_REPLICAS;
        assertThat(init(-1, (short) -1).error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(get(coordinator.describe(List.of(ID))).get(0).error())
                .isEqualTo(Errors.TRANSACTIONAL_ID_NOT_FOUND);
    }

    @Test
    void initDuringAnOpenTransactionAbortsItWithABumpedEpochAndAsksToRetry() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        assertThat(init(-1, (short) -1).error()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(markers.calls()).singleElement().satisfies(call -> {
            assertThat(call.marker()).isEqualTo(new TransactionMarker(1000, (short) 1, 0, TransactionResult.ABORT, (short) 0));
            assertThat(call.partitions()).containsExactly(P0);
        });
        awaitState(COMPLETE_ABORT);
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 2));
    }

    @Test
    void anExhaustedEpochMovesToANewProducerId() {
        coordinator.close();
        short exhausted = (short) (Short.MAX_VALUE - 1);
        TransactionMetadata stored = new TransactionMetadata(ID, 7, -1, -1, exhausted, (short) -1, TIMEOUT_MS,
                COMPLETE_COMMIT, Set.of(), 1, 1, (short) 2);
        log.write(TransactionCoordinator.partitionFor(ID, 50), TransactionLogRecord.key(ID),
                TransactionLogRecord.value(stored, (short) 1));
        coordinator = newCoordinator();

        assertThat(init(7, exhausted)).isEqualTo(ok(1000, 0));
        assertThat(describe().previousProducerId()).isEqualTo(7);
        // The producer may not have heard the answer: its retry with the old id and epoch gets the same one.
        assertThat(init(7, exhausted)).isEqualTo(ok(1000, 0));
    }

    // ---------------------------------------------------------------------------------------- AddPartitionsToTxn

    @Test
    void addingPartitionsChecksTheProducerAndStartsTheTransaction() {
        assertThat(add(1000, (short) 0, P0)).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING); // no such id yet
        init(-1, (short) -1);
        assertThat(add(999, (short) 0, P0)).isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(add(1000, (short) 1, P0)).isEqualTo(Errors.PRODUCER_FENCED);
        clock.advance(5);
        assertThat(add(1000, (short) 0, P0)).isEqualTo(Errors.NONE);
        long started = describe().startTimestamp();
        int written = log.records.size();
        assertThat(add(1000, (short) 0, P0)).isEqualTo(Errors.NONE);
        assertThat(log.records).hasSize(written); // already in: nothing written
        clock.advance(5);
        assertThat(add(1000, (short) 0, P1)).isEqualTo(Errors.NONE);
        assertThat(describe().partitions()).containsExactlyInAnyOrder(P0, P1);
        assertThat(describe().startTimestamp()).isEqualTo(started);
        assertThat(log.statesOf(ID)).containsExactly(EMPTY, ONGOING, ONGOING);
    }

    @Test
    void verifyOnlyAnswersWhetherEachPartitionIsInTheTransaction() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        assertThat(get(coordinator.verifyPartitions(ID, 1000, (short) 0, List.of(P0, P1),
                Errors.TRANSACTION_ABORTABLE))).isEqualTo(Map.of(P0, Errors.NONE, P1, Errors.TRANSACTION_ABORTABLE));
        assertThat(get(coordinator.verifyPartitions(ID, 1000, (short) 3, List.of(P0), Errors.INVALID_TXN_STATE)))
                .isEqualTo(Map.of(P0, Errors.PRODUCER_FENCED));
    }

    @Test
    void verifyOnlyDoesNotWaitForAPendingAdd() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        log.holdWrites = true;
        CompletableFuture<Errors> second = coordinator.addPartitions(ID, 1000, (short) 0, List.of(P1), (short) 0);
        await(() -> log.heldWrites() == 1);
        // Kafka answers from the state that counted: P0 is in the transaction, P1 not yet.
        assertThat(get(coordinator.verifyPartitions(ID, 1000, (short) 0, List.of(P0, P1),
                Errors.TRANSACTION_ABORTABLE))).isEqualTo(Map.of(P0, Errors.NONE, P1, Errors.TRANSACTION_ABORTABLE));
        log.releaseWrites();
        assertThat(get(second)).isEqualTo(Errors.NONE);
    }

    @Test
    void underTv2AnAddWithTheNewIdWhileTheMarkersOfARotatingEndAreWrittenIsAskedToRetry() {
        short last = restartWithProducer7CompletedUnderTv2OnItsLastEpoch();
        add(7, last, P0);
        markers.hold = true;
        assertThat(end(7, last, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 0));
        // The new id counts only once the transaction completes; the pending write is checked first, as Kafka does.
        assertThat(get(coordinator.addPartitions(ID, 1000, (short) 0, List.of(P1), (short) 2)))
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(add(7, (short) 3, P1)).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        markers.release(Map.of());
        awaitState(COMPLETE_COMMIT);
        assertThat(get(coordinator.addPartitions(ID, 1000, (short) 0, List.of(P1), (short) 2))).isEqualTo(Errors.NONE);
    }

    // ------------------------------------------------------------------------------------------------- EndTxn

    @Test
    void aTv1CommitIsPreparedMarkedAndCompleted() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0, P1);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, false)).isEqualTo(ok(1000, 0));
        awaitState(COMPLETE_COMMIT);
        assertThat(log.statesOf(ID)).containsExactly(EMPTY, ONGOING, PREPARE_COMMIT, COMPLETE_COMMIT);
        assertThat(markers.calls()).singleElement().satisfies(call -> {
            assertThat(call.marker()).isEqualTo(new TransactionMarker(1000, (short) 0, 0, TransactionResult.COMMIT, (short) 0));
            assertThat(call.partitions()).containsExactlyInAnyOrder(P0, P1);
        });
        assertThat(describe().partitions()).isEmpty();
        // A retry of the commit is answered alike; an abort now, or an end with nothing open, is not.
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, false).error()).isEqualTo(Errors.NONE);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, false).error()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end(1000, (short) 1, TransactionResult.COMMIT, false).error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(end(7, (short) 0, TransactionResult.COMMIT, false).error())
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void anEmptyTransactionCannotBeEndedUnderTv1() {
        init(-1, (short) -1);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, false).error()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, false).error()).isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void whileMarkersAreWrittenTheIdAnswersConcurrentTransactions() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        markers.hold = true;
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, false).error()).isEqualTo(Errors.NONE);
        assertThat(describe().state()).isEqualTo(PREPARE_ABORT);
        assertThat(add(1000, (short) 0, P1)).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, false).error())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(init(-1, (short) -1).error()).isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        // A partition whose leader is not ready is retried; a deleted one needs no marker.
        markers.release(Map.of(P0, Errors.NOT_LEADER_OR_FOLLOWER));
        // The retry's backoff passes on the broker's clock (moved until the coordinator's thread has started it).
        await(() -> {
            clock.advance(TransactionMarkers.RETRY_BACKOFF_MS);
            return markers.calls().size() == 2;
        });
        markers.release(Map.of(P0, Errors.UNKNOWN_TOPIC_OR_PARTITION));
        awaitState(COMPLETE_ABORT);
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 1));
    }

    @Test
    void markersAnsweredAtOnceCompleteTheTransactionBeforeItsEndIsAnsweredOrARequestQueuedMeanwhileServed() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        // The producer's next transaction asks while the markers are being written (queued on the coordinator's
        // thread behind the EndTxn): it must find the transaction complete, not CONCURRENT_TRANSACTIONS.
        List<CompletableFuture<Errors>> next = new java.util.ArrayList<>();
        markers.onAppend = () -> next.add(coordinator.addPartitions(ID, 1000, (short) 1, List.of(P1), (short) 2));
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
        assertThat(log.statesOf(ID)).startsWith(EMPTY, ONGOING, PREPARE_COMMIT, COMPLETE_COMMIT);
        assertThat(next).singleElement().satisfies(add -> assertThat(get(add)).isEqualTo(Errors.NONE));
        assertThat(describe().state()).isEqualTo(ONGOING);
        assertThat(describe().partitions()).containsExactly(P1);
    }

    @Test
    void underTv2EachEndBumpsTheEpochAndARetryWithTheOldOneIsAnsweredAlike() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
        assertThat(markers.calls().get(0).marker().producerEpoch()).isEqualTo((short) 1);
        assertThat(markers.calls().get(0).marker().transactionVersion()).isEqualTo((short) 2);
        awaitState(COMPLETE_COMMIT);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
        // KIP-890: an abort with nothing open is allowed, and bumps the epoch too; no partition needs a marker.
        assertThat(end(1000, (short) 1, TransactionResult.ABORT, true)).isEqualTo(ok(1000, 2));
        awaitState(COMPLETE_ABORT);
        assertThat(markers.calls()).hasSize(1);
        assertThat(end(1000, (short) 2, TransactionResult.COMMIT, true).error()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(describe().clientTransactionVersion()).isEqualTo((short) 2);
    }

    @Test
    void underTv2ARetriedEndWhileTheMarkersAreWrittenIsAskedToRetryThenAnsweredAlike() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        markers.hold = true;
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
        // The answer was lost: the retry names the epoch before the bump, which the prepared state carries already.
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true).error())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, true).error())
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        markers.release(Map.of());
        awaitState(COMPLETE_COMMIT);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, true).error()).isEqualTo(Errors.INVALID_TXN_STATE);
    }

    @Test
    void underTv2AnEndOnTheLastEpochMovesTheProducerToANewIdAtEpoch0() {
        short last = restartWithProducer7CompletedUnderTv2OnItsLastEpoch();
        markers.hold = true;
        add(7, last, P0);

        assertThat(end(7, last, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 0));
        // The markers carry the old id's very last epoch; the transaction, prepared, names the id to move to, so
        // that a coordinator loading it mid-way moves there too.
        assertThat(markers.calls().get(0).marker().producerId()).isEqualTo(7);
        assertThat(markers.calls().get(0).marker().producerEpoch()).isEqualTo(Short.MAX_VALUE);
        assertThat(describe().nextProducerId()).isEqualTo(1000);
        coordinator.close(); // mid-way: the next coordinator's load writes the markers again and completes it
        markers.hold = false;
        coordinator = newCoordinator();
        awaitState(COMPLETE_COMMIT);
        assertThat(describe().producerId()).isEqualTo(1000);
        assertThat(describe().producerEpoch()).isZero();
        assertThat(describe().previousProducerId()).isEqualTo(7);
        assertThat(describe().nextProducerId()).isEqualTo(-1);

        // A retry of that EndTxn (its answer lost) still names the old id: it is answered alike.
        assertThat(end(7, last, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 0));
        assertThat(end(7, (short) 3, TransactionResult.COMMIT, true).error())
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        add(1000, (short) 0, P0);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true)).isEqualTo(ok(1000, 1));
    }

    @Test
    void underTv2ATimedOutTransactionOnTheLastEpochIsFencedAndMovesTheProducerToANewId() {
        short last = restartWithProducer7CompletedUnderTv2OnItsLastEpoch();
        add(7, last, P0);

        clock.advance(TIMEOUT_MS + 10_000);
        awaitState(COMPLETE_ABORT);
        // Fenced as Kafka fences: the markers carry the bumped epoch, the id's very last, and the transaction's
        // version, 2, for the leaders to check the epoch is above the producer's (KIP-1228).
        assertThat(markers.calls()).singleElement().satisfies(call -> assertThat(call.marker())
                .isEqualTo(new TransactionMarker(7, Short.MAX_VALUE, 0, TransactionResult.ABORT, (short) 2)));
        assertThat(describe().producerId()).isEqualTo(1000);
        assertThat(describe().producerEpoch()).isZero();
        assertThat(describe().previousProducerId()).isEqualTo(7);
        // The producer's abort after the timeout, on the old id, goes on with the new id rather than past the last
        // epoch.
        assertThat(end(7, last, TransactionResult.ABORT, true)).isEqualTo(ok(1000, 0));
    }

    // --------------------------------------------------------------------------------------------- the rounds

    @Test
    void aTransactionPastItsTimeoutIsAbortedWithTheEpochBumped() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        clock.advance(TIMEOUT_MS - 10_000); // rounds run; not yet past the timeout
        assertThat(describe().state()).isEqualTo(ONGOING);
        clock.advance(20_000);
        awaitState(COMPLETE_ABORT);
        assertThat(markers.calls()).singleElement().satisfies(call -> assertThat(call.marker())
                .isEqualTo(new TransactionMarker(1000, (short) 1, 0, TransactionResult.ABORT, (short) 0)));
        assertThat(add(1000, (short) 0, P0)).isEqualTo(Errors.PRODUCER_FENCED);
    }

    /**
     * What a transaction version 2 producer whose transaction timed out meets next, as Kafka 4.3.1 answers it (the
     * same requests sent to a real one): the abort's markers and the id's state carry the epoch bumped once; a commit
     * at its old epoch is INVALID_TXN_STATE, an abort at it a retry of the abort (the bumped epoch to go on with), and
     * so is its KIP-360 InitProducerId naming it.
     */
    @Test
    void underTv2AProducerWhoseTransactionTimedOutMeetsTheEpochsKafkaGivesIt() {
        init(-1, (short) -1);
        assertThat(get(coordinator.addPartitions(ID, 1000, (short) 0, List.of(P0), (short) 2)))
                .isEqualTo(Errors.NONE);
        clock.advance(TIMEOUT_MS + 10_000);
        awaitState(COMPLETE_ABORT);
        assertThat(markers.calls()).singleElement().satisfies(call -> assertThat(call.marker())
                .isEqualTo(new TransactionMarker(1000, (short) 1, 0, TransactionResult.ABORT, (short) 2)));
        assertThat(describe().producerEpoch()).isEqualTo((short) 1);

        // Its next send to another partition: the implicit add is fenced (its produce answers INVALID_PRODUCER_EPOCH).
        assertThat(get(coordinator.addPartitions(ID, 1000, (short) 0, List.of(P1), (short) 2)))
                .isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(end(1000, (short) 0, TransactionResult.COMMIT, true).error()).isEqualTo(Errors.INVALID_TXN_STATE);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, true)).isEqualTo(ok(1000, 1));
        assertThat(init(1000, (short) 0)).isEqualTo(ok(1000, 1));
        assertThat(init(1000, (short) 1)).isEqualTo(ok(1000, 2));
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 3));
    }

    /**
     * A transaction version 1 producer's timed-out transaction is ended by the finalized transaction version, as
     * Kafka 4.3.1 ends it: at version 2 its KIP-360 InitProducerId naming the fenced epoch is a retry of the bump
     * (answered with it), its EndTxn at that epoch PRODUCER_FENCED.
     */
    @Test
    void underTv2FinalizedATv1ProducerWhoseTransactionTimedOutGetsTheBumpedEpochFromInitProducerId() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        clock.advance(TIMEOUT_MS + 10_000);
        awaitState(COMPLETE_ABORT);
        assertThat(end(1000, (short) 0, TransactionResult.ABORT, false).error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(init(1000, (short) 0)).isEqualTo(ok(1000, 1));
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 2));
    }

    @Test
    void underTv1FinalizedTheProducerWhoseTransactionTimedOutStaysFencedThroughInitProducerId() {
        coordinator.close();
        coordinator = newCoordinator(new TransactionConfig(CONFIG.maxTimeoutMs(), CONFIG.idExpirationMs(),
                CONFIG.abortTimedOutIntervalMs(), CONFIG.removeExpiredIntervalMs(), (short) 1));
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        clock.advance(TIMEOUT_MS + 10_000);
        awaitState(COMPLETE_ABORT);
        // Its KIP-360 bump names epoch 0, the one fenced: not a retry of a bump it asked for (Kafka 4.3.1 with
        // transaction.version 1 finalized answers so).
        assertThat(init(1000, (short) 0).error()).isEqualTo(Errors.PRODUCER_FENCED);
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 2));
    }

    @Test
    void anIdIdlePastTheExpirationIsRemoved() {
        init(-1, (short) -1);
        clock.advance(CONFIG.idExpirationMs() - 3_600_000);
        assertThat(log.hasTombstoneFor(ID)).isFalse();
        clock.advance(2 * 3_600_000);
        await(() -> log.hasTombstoneFor(ID));
        assertThat(get(coordinator.describe(List.of(ID))).get(0).error())
                .isEqualTo(Errors.TRANSACTIONAL_ID_NOT_FOUND);
        // And it stays removed after a reload.
        coordinator.close();
        coordinator = newCoordinator();
        assertThat(get(coordinator.describe(List.of(ID))).get(0).error())
                .isEqualTo(Errors.TRANSACTIONAL_ID_NOT_FOUND);
    }

    // ------------------------------------------------------------------------------------------------ reloads

    @Test
    void aPreparedTransactionFoundAtLoadGetsItsMarkersAndCompletes() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        markers.hold = true;
        end(1000, (short) 0, TransactionResult.COMMIT, false);
        coordinator.close(); // "crashes" with the markers not written
        markers.hold = false;

        coordinator = newCoordinator();
        awaitState(COMPLETE_COMMIT);
        assertThat(markers.calls()).hasSize(2);
        assertThat(markers.calls().get(1).marker())
                .isEqualTo(new TransactionMarker(1000, (short) 0, 0, TransactionResult.COMMIT, (short) 0));
        assertThat(init(-1, (short) -1)).isEqualTo(ok(1000, 1));
    }

    @Test
    void anOngoingTransactionFoundAtLoadIsKeptThenAbortedAtItsTimeout() {
        init(-1, (short) -1);
        add(1000, (short) 0, P0);
        coordinator.close();
        coordinator = newCoordinator();
        assertThat(describe().state()).isEqualTo(ONGOING);
        assertThat(describe().partitions()).containsExactly(P0);
        clock.advance(TIMEOUT_MS + 10_000);
        awaitState(COMPLETE_ABORT);
    }

    // ---------------------------------------------------------------------------------------------- listing

    @Test
    void listingFiltersByStateProducerDurationAndPattern() {
        init(-1, (short) -1); // payments: 1000, Empty
        get(coordinator.initProducerId("refunds", TIMEOUT_MS, -1, (short) -1)); // 1001
        get(coordinator.addPartitions("refunds", 1001, (short) 0, List.of(P0), (short) 0));
        clock.advance(5_000);
        assertThat(ids(Set.of(), Set.of(), -1, null)).containsExactlyInAnyOrder(ID, "refunds");
        assertThat(ids(Set.of(ONGOING), Set.of(), -1, null)).containsExactly("refunds");
        assertThat(ids(Set.of(), Set.of(1000L), -1, null)).containsExactly(ID);
        assertThat(ids(Set.of(ONGOING), Set.of(), 4_000, null)).containsExactly("refunds");
        assertThat(ids(Set.of(ONGOING), Set.of(), 6_000, null)).isEmpty();
        assertThat(ids(Set.of(), Set.of(), -1, Pattern.compile("ref.*"))).containsExactly("refunds");
        assertThat(ids(Set.of(), Set.of(), -1, Pattern.compile("ref"))).isEmpty(); // the whole id must match
    }

    @Test
    void anIdsPartitionIsKafkasAbsoluteHashModuloThePartitions() {
        assertThat(TransactionCoordinator.partitionFor("payments", 50)).isEqualTo(Math.abs("payments".hashCode()) % 50);
        String minValueHash = "polygenelubricants"; // String.hashCode() == Integer.MIN_VALUE
        assertThat(minValueHash.hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(TransactionCoordinator.partitionFor(minValueHash, 50)).isZero();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private List<String> ids(Set<TransactionState> states, Set<Long> producers, long duration, Pattern pattern) {
        return get(coordinator.list(new TransactionCoordinator.ListFilter(states, producers, duration, pattern)))
                .transactions().stream().map(TransactionMetadata::transactionalId).toList();
    }

    private TransactionCoordinator.ProducerIdAndEpoch init(long producerId, short epoch) {
        return get(coordinator.initProducerId(ID, TIMEOUT_MS, producerId, epoch));
    }

    /** A new coordinator that loads producer 7's committed TV2 transaction at epoch 32766; returns that epoch. */
    private short restartWithProducer7CompletedUnderTv2OnItsLastEpoch() {
        coordinator.close();
        short last = (short) (Short.MAX_VALUE - 1);
        TransactionMetadata stored = new TransactionMetadata(ID, 7, -1, -1, last, (short) (last - 1), TIMEOUT_MS,
                COMPLETE_COMMIT, Set.of(), 1, 1, (short) 2);
        log.write(TransactionCoordinator.partitionFor(ID, 50), TransactionLogRecord.key(ID),
                TransactionLogRecord.value(stored, (short) 1));
        coordinator = newCoordinator();
        return last;
    }

    private Errors add(long producerId, short epoch, TopicPartition... partitions) {
        return get(coordinator.addPartitions(ID, producerId, epoch, List.of(partitions), (short) 0));
    }

    private TransactionCoordinator.ProducerIdAndEpoch end(long producerId, short epoch, TransactionResult result,
                                                          boolean transactionVersion2) {
        return get(coordinator.endTransaction(ID, producerId, epoch, result, transactionVersion2));
    }

    private TransactionMetadata describe() {
        TransactionCoordinator.Description description = get(coordinator.describe(List.of(ID))).get(0);
        assertThat(description.error()).isEqualTo(Errors.NONE);
        return description.metadata();
    }

    private static TransactionCoordinator.ProducerIdAndEpoch ok(long producerId, int epoch) {
        return new TransactionCoordinator.ProducerIdAndEpoch(Errors.NONE, producerId, (short) epoch);
    }

    private void awaitState(TransactionState state) {
        await(() -> describe().state() == state);
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in 10 s");
            }
            Thread.onSpinWait();
        }
    }

    private static <T> T get(CompletableFuture<T> future) {
        return future.join();
    }
}
