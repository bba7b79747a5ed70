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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Gets a transaction's marker written to each of its partitions, as Kafka's TransactionMarkerChannelManager: through
 * the {@link TransactionMarkerAppender}, again after a backoff for the partitions that failed with a retriable
 * error (a leader moving, a replica behind), until every partition has it. A partition that no longer exists
 * (UNKNOWN_TOPIC_OR_PARTITION) needs none, as Kafka drops a deleted topic's markers.
 */
final class TransactionMarkers {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionMarkers.class);
    static final long RETRY_BACKOFF_MS = 100;

    private final TransactionMarkerAppender appender;
    private final ScheduledExecutorService thread;

    TransactionMarkers(TransactionMarkerAppender appender, ScheduledExecutorService thread) {
        this.appender = appender;
        this.thread = thread;
    }

    /** Completes, on the coordinator's thread, once every partition has the marker. */
    CompletableFuture<Void> write(TransactionMarker marker, Collection<TopicPartition> partitions) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        attempt(marker, Set.copyOf(partitions), done);
        return done;
    }

    private void attempt(TransactionMarker marker, Set<TopicPartition> remaining, CompletableFuture<Void> done) {
        if (remaining.isEmpty()) {
            done.complete(null);
            return;
        }
        java.util.concurrent.CompletionStage<Map<TopicPartition, Errors>> appended;
        try {
            appended = appender.append(marker, remaining);
        } catch (RuntimeException e) { // an appender that throws is retried as one that fails
            appended = CompletableFuture.failedFuture(e);
        }
        appended.whenCompleteAsync((results, failure) -> {
            Set<TopicPartition> again = new HashSet<>();
            if (failure != null) {
                LOG.warn("Writing {} to {} failed; retrying", marker, remaining, failure);
                again.addAll(remaining);
            } else {
                for (TopicPartition partition : remaining) {
                    Errors error = results.getOrDefault(partition, Errors.UNKNOWN_SERVER_ERROR);
                    if (error != Errors.NONE && error != Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                        again.add(partition);
                    }
                }
            }
            if (again.isEmpty()) {
                done.complete(null);
            } else if (!thread.isShutdown()) {
                LOG.debug("Markers of {} not yet written to {}: {}", marker, again, results);
                thread.schedule(() -> attempt(marker, again, done), RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
            }
        }, thread);
    }
}
