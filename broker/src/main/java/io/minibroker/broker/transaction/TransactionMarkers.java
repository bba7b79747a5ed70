package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;

/**
 * Gets a transaction's marker written to each of its partitions, as Kafka's TransactionMarkerChannelManager: through
 * the {@link TransactionMarkerAppender}, again after a backoff for the partitions that failed with a retriable
 * error (a leader moving, a replica behind), until every partition has it; the backoff passes on the broker's clock
 * ({@link BackoffTimer}). A partition that no longer exists
 * (UNKNOWN_TOPIC_OR_PARTITION) needs none, as Kafka drops a deleted topic's markers. As Kafka's
 * TransactionMarkerRequestCompletionHandler, sending stops for good, the write never completing, when a partition
 * answers that the producer or the coordinator has moved on (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED:
 * no retry could succeed), or once this coordinator no longer owns the transaction (its partition of
 * {@code __transaction_state} resigned or loaded anew): the one that owns it now writes the markers.
 */
final class TransactionMarkers {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionMarkers.class);
    static final long RETRY_BACKOFF_MS = 100;

    private final TransactionMarkerAppender appender;
    private final ExecutorService thread;
    private final BackoffTimer backoffs;

    /** @param thread the coordinator's, where every answer is handled and every retry runs */
    TransactionMarkers(TransactionMarkerAppender appender, ExecutorService thread, BackoffTimer backoffs) {
        this.appender = appender;
        this.thread = thread;
        this.backoffs = backoffs;
    }

    /**
     * Completes, on the coordinator's thread, once every partition has the marker: within this call when every
     * partition answered at once.
     *
     * @param owned whether this coordinator still owns the transaction, asked on its thread before each retry
     */
    CompletableFuture<Void> write(TransactionMarker marker, Collection<TopicPartition> partitions,
                                  BooleanSupplier owned) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        attempt(marker, Set.copyOf(partitions), owned, done);
        return done;
    }

    private void attempt(TransactionMarker marker, Set<TopicPartition> remaining, BooleanSupplier owned,
                         CompletableFuture<Void> done) {
        if (remaining.isEmpty()) {
            done.complete(null);
            return;
        }
        CompletableFuture<Map<TopicPartition, Errors>> appended;
        try {
            appended = appender.append(marker, remaining).toCompletableFuture();
        } catch (RuntimeException e) { // an appender that throws is retried as one that fails
            appended = CompletableFuture.failedFuture(e);
        }
        CoordinatorOutcomes.handle(appended, (results, failure) -> {
            Set<TopicPartition> again = new HashSet<>();
            if (failure != null) {
                LOG.warn("Writing {} to {} failed; retrying", marker, remaining, failure);
                again.addAll(remaining);
            } else {
                for (TopicPartition partition : remaining) {
                    Errors error = results.getOrDefault(partition, Errors.UNKNOWN_SERVER_ERROR);
                    if (error == Errors.INVALID_PRODUCER_EPOCH || error == Errors.TRANSACTION_COORDINATOR_FENCED) {
                        LOG.info("Writing {} to {} failed for good ({}); no more of its markers are sent", marker,
                                partition, error);
                        return null;
                    }
                    if (error != Errors.NONE && error != Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                        again.add(partition);
                    }
                }
            }
            if (again.isEmpty()) {
                done.complete(null);
            } else if (!owned.getAsBoolean()) {
                LOG.debug("Markers of {} left to the transaction's new coordinator", marker);
            } else {
                LOG.debug("Markers of {} not yet written to {}: {}", marker, again, results);
                afterBackoff(() -> attempt(marker, again, owned, done));
            }
            return null;
        }, thread);
    }

    /**
     * Runs {@code task} on the coordinator's thread once the retry backoff has passed on the broker's clock; not at
     * all once the thread has stopped or the timer has closed (the broker stopping: a closed timer waits no time, so
     * the retry would spin; the partition's next coordinator sends the markers again when it loads the transaction).
     */
    void afterBackoff(Runnable task) {
        if (!thread.isShutdown() && !backoffs.isClosed()) {
            backoffs.after(RETRY_BACKOFF_MS).thenRunAsync(task, thread);
        }
    }
}
