package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster node's coordinator, which coordinates only the partitions of {@code __transaction_state} it leads
 * (Kafka's onElection/onResignation): nothing before leading, an id's state reloaded at a new leader epoch, prepared
 * transactions completed with markers carrying that epoch as the coordinator epoch, nothing after resigning.
 */
class TransactionCoordinatorLeadershipTest {

    private static final String ID = "tx-leader";
    private static final int PARTITIONS = 50;
    private static final int PARTITION = TransactionCoordinator.partitionFor(ID, PARTITIONS);
    private static final TopicPartition DATA = new TopicPartition("data", 0);
    private static final TransactionConfig CONFIG = new TransactionConfig(900_000, 604_800_000L, 10_000, 3_600_000,
            (short) 2);

    private final ManualClock clock = new ManualClock();
    private final InMemoryTransactionLog log = new InMemoryTransactionLog(PARTITIONS);
    private final FakeMarkerAppender markers = new FakeMarkerAppender();
    private final AtomicLong producerIds = new AtomicLong(1000);
    private final BackoffTimer backoffs = new BackoffTimer(BrokerClock.manual(clock));
    private TransactionCoordinator coordinator;

    @BeforeEach
    void start() {
        coordinator = new TransactionCoordinator(log, markers, producerIds::getAndIncrement, CONFIG,
                BrokerClock.manual(clock), backoffs);
    }

    @AfterEach
    void stop() throws InterruptedException {
        coordinator.close();
        backoffs.close();
    }

    @Test
    void noIdIsCoordinatedBeforeItsPartitionIsLedNorAfterItIsResigned() {
        assertThat(init().error()).isEqualTo(Errors.NOT_COORDINATOR);
        coordinator.onLeading((PARTITION + 1) % PARTITIONS, 3);
        awaitLoaded(ID + "-other", (PARTITION + 1) % PARTITIONS);
        assertThat(init().error()).isEqualTo(Errors.NOT_COORDINATOR);

        coordinator.onLeading(PARTITION, 3);
        awaitLoaded(ID, PARTITION);
        assertThat(init()).isEqualTo(new TransactionCoordinator.ProducerIdAndEpoch(Errors.NONE, 1000, (short) 0));

        coordinator.onResigned(PARTITION);
        await(() -> describeError(ID) == Errors.NOT_COORDINATOR, "the id to be forgotten");
        assertThat(init().error()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void aNewLeaderReloadsThePartitionAndCompletesAPreparedTransactionWithItsLeaderEpoch() {
        markers.hold = true; // the first leader dies between its PrepareCommit and its markers' answers
        coordinator.onLeading(PARTITION, 4);
        awaitLoaded(ID, PARTITION);
        TransactionCoordinator.ProducerIdAndEpoch producer = init();
        assertThat(coordinator.addPartitions(ID, producer.producerId(), producer.producerEpoch(), List.of(DATA),
                (short) 0).join()).isEqualTo(Errors.NONE);
        assertThat(coordinator.endTransaction(ID, producer.producerId(), producer.producerEpoch(),
                TransactionResult.COMMIT, false).join().error()).isEqualTo(Errors.NONE);
        await(() -> markers.calls().size() == 1, "the markers of the first term");
        assertThat(markers.calls().get(0).marker().coordinatorEpoch()).isEqualTo(4);
        coordinator.onResigned(PARTITION);
        await(() -> describeError(ID) == Errors.NOT_COORDINATOR, "the id to be forgotten");
        markers.release(Map.of()); // answers after resigning change nothing here
        assertThat(log.statesOf(ID)).doesNotContain(TransactionState.COMPLETE_COMMIT);

        markers.hold = false;
        coordinator.onLeading(PARTITION, 6);
        await(() -> log.statesOf(ID).contains(TransactionState.COMPLETE_COMMIT), "the commit to complete");
        assertThat(markers.calls()).hasSize(2);
        assertThat(markers.calls().get(1).marker())
                .isEqualTo(new TransactionMarker(producer.producerId(), producer.producerEpoch(), 6,
                        TransactionResult.COMMIT, (short) 0));
        assertThat(markers.calls().get(1).partitions()).containsExactly(DATA);
    }

    @Test
    void aListingWhileAPartitionLoadsIsRefusedWithNothingListed() {
        coordinator.onLeading(PARTITION, 1);
        awaitLoaded(ID, PARTITION);
        init();
        int other = (PARTITION + 1) % PARTITIONS;
        int third = (PARTITION + 2) % PARTITIONS;
        AtomicReference<CompletableFuture<TransactionCoordinator.Listing>> listed = new AtomicReference<>();
        log.onReplay = partition -> {
            if (partition == other) {
                // Both queued on the coordinator's thread behind this replay: the third partition starts loading,
                // then the listing runs, before the third's replay, queued after it.
                coordinator.onLeading(third, 1);
                listed.set(coordinator.list(new TransactionCoordinator.ListFilter(Set.of(), Set.of(), -1, null)));
            }
        };
        coordinator.onLeading(other, 1);
        await(() -> listed.get() != null, "the listing to be asked");

        TransactionCoordinator.Listing listing = listed.get().join();
        assertThat(listing.error()).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(listing.transactions()).isEmpty();
    }

    @Test
    void anEmptyIdIsDescribedAsAnInvalidRequest() {
        coordinator.onLeading(PARTITION, 1);
        awaitLoaded(ID, PARTITION);
        assertThat(describeError("")).isEqualTo(Errors.INVALID_REQUEST);
    }

    private TransactionCoordinator.ProducerIdAndEpoch init() {
        return coordinator.initProducerId(ID, 60_000, -1, (short) -1).join();
    }

    private Errors describeError(String transactionalId) {
        return coordinator.describe(List.of(transactionalId)).join().get(0).error();
    }

    /** Until a partition is loaded its ids answer COORDINATOR_LOAD_IN_PROGRESS; an unknown id then is not found. */
    private void awaitLoaded(String transactionalId, int partition) {
        String id = transactionalId;
        for (int i = 0; TransactionCoordinator.partitionFor(id, PARTITIONS) != partition; i++) {
            id = transactionalId + i;
        }
        String probe = id;
        await(() -> describeError(probe) == Errors.TRANSACTIONAL_ID_NOT_FOUND, "partition " + partition + " loaded");
    }
}
