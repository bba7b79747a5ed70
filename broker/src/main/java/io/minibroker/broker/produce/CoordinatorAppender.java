package io.minibroker.broker.produce;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.AppendResult;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.Purgatory;
import io.netty.buffer.ByteBuf;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.ToIntFunction;

/**
 * How a batch a coordinator writes to its topic ({@code __consumer_offsets}, {@code __transaction_state}) comes to
 * count. On a single node it counts once appended and flushed. In a cluster Kafka appends them with acks=-1: here the leader appends it (with
 * its leader epoch) and it counts once the high watermark passes it, waited for in the produce purgatory as an
 * acks=all produce is ({@link DelayedProduce#awaitReplication}); the followers' parked fetches are woken as a
 * produce wakes them.
 */
@FunctionalInterface
public interface CoordinatorAppender {

    /**
     * Appends a batch (the caller keeps and releases it) with {@link PartitionLog#appendAsCoordinator}'s checks: a
     * producer's transactional batch presents {@code guard}, the verification its transaction coordinator was asked
     * under. Throws LogException if the log refuses it at once; the future completes with the batch's first offset
     * once the write counts, or exceptionally with a LogException.
     */
    CompletableFuture<Long> append(PartitionLog log, ByteBuf batch, VerificationGuard guard);

    /** {@link #append(PartitionLog, ByteBuf, VerificationGuard)} of a batch of no producer, which needs no guard. */
    default CompletableFuture<Long> append(PartitionLog log, ByteBuf batch) {
        return append(log, batch, null);
    }

    /** A single node's: appended and flushed before it answers. */
    CoordinatorAppender SINGLE_NODE = (log, batch, guard) ->
            CompletableFuture.completedFuture(log.appendAsCoordinator(batch, 0, guard).firstOffset());

    /**
     * A cluster's: only the partition's leader appends, with the topic's {@code min.insync.replicas} in sync (else
     * NOT_ENOUGH_REPLICAS before any append, as an acks=all produce); the write counts once replicated within
     * {@code timeoutMs} ({@code offsets.commit.timeout.ms} for commits, {@code request.timeout.ms} for transaction
     * states, as Kafka). The future completes on {@code completions} (the
     * coordinator's thread), not on the thread whose fetch moved the high watermark, often an event loop.
     */
    static CoordinatorAppender replicated(PartitionLeadership leadership, Purgatory<DelayedProduce> producePurgatory,
                                      Purgatory<DelayedFetch> fetchPurgatory, ToIntFunction<String> minInsync,
                                      long timeoutMs, Executor completions) {
        return (log, batch, guard) -> {
            TopicPartition partition = log.topicPartition();
            int minInsyncReplicas = minInsync.applyAsInt(partition.topic());
            LogException refused = leadership.appendRefusal(partition, minInsyncReplicas);
            if (refused != null) {
                throw refused;
            }
            // On the coordinator's thread, never an event loop: the append may fsync (flush.messages, a new epoch).
            AppendResult appended = log.appendAsCoordinator(batch, leadership.leaderEpoch(partition), guard);
            leadership.onLeaderAppend(partition); // a leader alone in an ISR that min.insync.replicas allows commits
            fetchPurgatory.checkAndComplete(partition); // the followers' parked fetches take it now
            return DelayedProduce.awaitReplication(producePurgatory, leadership, log, appended.lastOffset() + 1,
                    minInsyncReplicas, timeoutMs).thenApplyAsync(error -> {
                        if (error != Errors.NONE) {
                            throw new LogException(error, "write to " + partition + " not replicated: " + error);
                        }
                        return appended.firstOffset();
                    }, completions);
        };
    }
}
