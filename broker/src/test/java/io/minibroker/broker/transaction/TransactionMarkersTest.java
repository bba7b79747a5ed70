package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the coordinator writes a marker again, and when it stops for good, as Kafka's marker completion handler; the
 * retry's backoff passes on the broker's clock, here a manual one.
 */
class TransactionMarkersTest {

    private static final TopicPartition PARTITION = new TopicPartition("orders", 0);
    private static final TransactionMarker MARKER = new TransactionMarker(7, (short) 1, 0, TransactionResult.COMMIT, (short) 0);

    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private final ManualClock clock = new ManualClock();
    private final BackoffTimer backoffs = new BackoffTimer(BrokerClock.manual(clock));
    private final FakeMarkerAppender appender = new FakeMarkerAppender();
    private final TransactionMarkers markers = new TransactionMarkers(appender, thread, backoffs);

    @AfterEach
    void stop() throws InterruptedException {
        thread.shutdownNow();
        backoffs.close();
    }

    /** Returns once every task submitted to the coordinator's thread before has run. */
    private void drain() {
        CompletableFuture.runAsync(() -> { }, thread).join();
    }

    /** How many times the marker was sent again once the retry backoff has passed on the broker's clock. */
    private int retriesAfterTheBackoff() {
        int before = appender.calls().size();
        clock.advance(TransactionMarkers.RETRY_BACKOFF_MS);
        drain();
        return appender.calls().size() - before;
    }

    private CompletableFuture<Void> writeAnswered(Errors error, boolean owned) {
        appender.hold = true;
        CompletableFuture<Void> done = markers.write(MARKER, List.of(PARTITION), () -> owned);
        appender.release(Map.of(PARTITION, error));
        drain();
        return done;
    }

    @Test
    void aRetriableErrorIsRetriedWhileTheCoordinatorOwnsTheTransaction() {
        CompletableFuture<Void> done = writeAnswered(Errors.NOT_LEADER_OR_FOLLOWER, true);

        clock.advance(TransactionMarkers.RETRY_BACKOFF_MS - 1);
        drain();
        assertThat(appender.calls()).as("not before the backoff has passed").hasSize(1);
        assertThat(retriesAfterTheBackoff()).isEqualTo(1);
        assertThat(done).isNotDone();
        appender.release(Map.of(PARTITION, Errors.NONE));
        drain();
        assertThat(done).isCompleted();
    }

    @Test
    void aCoordinatorThatNoLongerOwnsTheTransactionLeavesItsMarkersToTheNewOne() {
        CompletableFuture<Void> done = writeAnswered(Errors.NOT_LEADER_OR_FOLLOWER, false);

        assertThat(retriesAfterTheBackoff()).isZero();
        assertThat(done).isNotDone();
    }

    @Test
    void aFencedMarkerIsNeverSentAgain() {
        for (Errors fenced : List.of(Errors.INVALID_PRODUCER_EPOCH, Errors.TRANSACTION_COORDINATOR_FENCED)) {
            CompletableFuture<Void> done = writeAnswered(fenced, true);

            assertThat(retriesAfterTheBackoff()).as("%s", fenced).isZero();
            assertThat(done).isNotDone();
        }
    }

    /**
     * The broker closes the shared timer while the coordinator's thread still runs: the wait in progress ends at once
     * and its retry is sent, but a retry that fails then is not sent again (a closed timer waits no time, so it
     * would loop); the transaction's next coordinator sends its markers when it loads it.
     */
    @Test
    void aRetryThatFailsOnceTheTimerIsClosedIsNotSentAgain() throws InterruptedException {
        CompletableFuture<Void> done = writeAnswered(Errors.NOT_LEADER_OR_FOLLOWER, true);
        AtomicInteger failedRetries = new AtomicInteger();
        appender.onAppend = () -> {
            failedRetries.incrementAndGet();
            throw new IllegalStateException("the peer is gone"); // as ClusterMarkerAppender's fail-fast
        };

        backoffs.close();
        for (int i = 0; i < 5; i++) {
            drain();
        }

        assertThat(failedRetries).as("the retry whose wait the close ended, then no more").hasValue(1);
        assertThat(done).isNotDone();
    }

    @Test
    void aPartitionAnsweredOrDeletedNeedsNoMoreMarkers() {
        assertThat(writeAnswered(Errors.NONE, true)).isCompleted();
        assertThat(writeAnswered(Errors.UNKNOWN_TOPIC_OR_PARTITION, true)).isCompleted();
        assertThat(retriesAfterTheBackoff()).isZero();
    }
}
