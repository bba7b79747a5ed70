package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** When the coordinator writes a marker again, and when it stops for good, as Kafka's marker completion handler. */
class TransactionMarkersTest {

    private static final TopicPartition PARTITION = new TopicPartition("orders", 0);
    private static final TransactionMarker MARKER = new TransactionMarker(7, (short) 1, 0, TransactionResult.COMMIT);

    /** The coordinator's thread, counting the backed-off retries it is asked to schedule instead of running them. */
    private static final class CountingThread extends ScheduledThreadPoolExecutor {
        final AtomicInteger retries = new AtomicInteger();

        CountingThread() {
            super(1);
        }

        /** A backed-off retry is counted, not run; execute's own (undelayed) scheduling runs as usual. */
        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            if (delay == 0) {
                return super.schedule(command, delay, unit);
            }
            retries.incrementAndGet();
            return null;
        }

        /** Returns once every task submitted before has run. */
        void drain() {
            CompletableFuture.runAsync(() -> { }, this).join();
        }
    }

    private final CountingThread thread = new CountingThread();
    private final FakeMarkerAppender appender = new FakeMarkerAppender();
    private final TransactionMarkers markers = new TransactionMarkers(appender, thread);

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    private CompletableFuture<Void> writeAnswered(Errors error, boolean owned) {
        appender.hold = true;
        CompletableFuture<Void> done = markers.write(MARKER, List.of(PARTITION), () -> owned);
        appender.release(Map.of(PARTITION, error));
        thread.drain();
        return done;
    }

    @Test
    void aRetriableErrorIsRetriedWhileTheCoordinatorOwnsTheTransaction() {
        CompletableFuture<Void> done = writeAnswered(Errors.NOT_LEADER_OR_FOLLOWER, true);

        assertThat(thread.retries).hasValue(1);
        assertThat(done).isNotDone();
    }

    @Test
    void aCoordinatorThatNoLongerOwnsTheTransactionLeavesItsMarkersToTheNewOne() {
        CompletableFuture<Void> done = writeAnswered(Errors.NOT_LEADER_OR_FOLLOWER, false);

        assertThat(thread.retries).hasValue(0);
        assertThat(done).isNotDone();
    }

    @Test
    void aFencedMarkerIsNeverSentAgain() {
        for (Errors fenced : List.of(Errors.INVALID_PRODUCER_EPOCH, Errors.TRANSACTION_COORDINATOR_FENCED)) {
            CompletableFuture<Void> done = writeAnswered(fenced, true);

            assertThat(thread.retries).as("%s", fenced).hasValue(0);
            assertThat(done).isNotDone();
        }
    }

    @Test
    void aPartitionAnsweredOrDeletedNeedsNoMoreMarkers() {
        assertThat(writeAnswered(Errors.NONE, true)).isCompleted();
        assertThat(writeAnswered(Errors.UNKNOWN_TOPIC_OR_PARTITION, true)).isCompleted();
        assertThat(thread.retries).hasValue(0);
    }
}
