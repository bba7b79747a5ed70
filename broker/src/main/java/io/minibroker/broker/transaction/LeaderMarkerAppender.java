package io.minibroker.broker.transaction;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.DelayedFetch;
import io.minibroker.broker.log.AppendResult;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.DelayedProduce;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.purgatory.Purgatory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * Writes transaction markers on the partitions this broker leads, one rule for a single node and a cluster's
 * leader, as Kafka's ReplicaManager appends them for the coordinator (origin COORDINATOR, acks=all): the partition
 * must be led here with its topic's {@code min.insync.replicas} in sync (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS
 * before any append); the marker is checked against the producer's state in the log and appended under the log's
 * lock ({@link PartitionLog#appendMarkerUnflushed}: INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED); parked
 * fetches are woken, since the last stable offset may have moved; and the partition is answered once the marker
 * counts as an acks=all produce would: fsynced first when {@code flush.messages} (or a new leader epoch) asks it, on
 * the disk executor, then past the high watermark, waited for in the produce purgatory
 * ({@link DelayedProduce#awaitReplication}; at once on a single node, where the high watermark is the log end).
 *
 * <p>Once a marker on a {@code __consumer_offsets} partition counts, each {@link TransactionCompletionListener}
 * registered is told (as Kafka tells its group coordinator from the append's callback) before the partition is
 * answered, on the thread that completed it: the caller's, the disk thread, or the one whose fetch moved the high
 * watermark (often an event loop). A listener must be quick and never block; what it has applied when it returns is
 * what the coordinator's EndTxn is answered after. A partition with no replica here is UNKNOWN_TOPIC_OR_PARTITION,
 * as in Kafka, whether or not the cluster has it.
 *
 * <p>Never waits on the caller's thread: an event loop (WriteTxnMarkers) may call it.
 */
public final class LeaderMarkerAppender implements TransactionMarkerAppender {

    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);
    private static final Logger LOG = LoggerFactory.getLogger(LeaderMarkerAppender.class);

    private final TopicRegistry topics;
    private final BrokerConfig config;
    private final PartitionLeadership leadership;
    private final Purgatory<DelayedProduce> producePurgatory;
    private final Purgatory<DelayedFetch> fetchPurgatory;
    private final Executor disk;
    private final BrokerClock clock;
    private final long replicationTimeoutMs;
    private final List<TransactionCompletionListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param replicationTimeoutMs how long a marker may wait for the high watermark (Kafka's request.timeout.ms,
     *     which its coordinator's marker appends use), then REQUEST_TIMED_OUT
     */
    public LeaderMarkerAppender(TopicRegistry topics, BrokerConfig config, PartitionLeadership leadership,
                                Purgatory<DelayedProduce> producePurgatory, Purgatory<DelayedFetch> fetchPurgatory,
                                Executor disk, BrokerClock clock, long replicationTimeoutMs) {
        this.topics = topics;
        this.config = config;
        this.leadership = leadership;
        this.producePurgatory = producePurgatory;
        this.fetchPurgatory = fetchPurgatory;
        this.disk = disk;
        this.clock = clock;
        this.replicationTimeoutMs = replicationTimeoutMs;
    }

    /** Has {@code listener} told of each marker that counts on a {@code __consumer_offsets} partition led here. */
    public void addCompletionListener(TransactionCompletionListener listener) {
        listeners.add(listener);
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker,
                                                               Collection<TopicPartition> partitions) {
        Map<TopicPartition, CompletableFuture<Errors>> pending = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            pending.put(partition, appendTo(marker, partition));
        }
        return CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
            pending.forEach((partition, error) -> errors.put(partition, error.join()));
            return errors;
        });
    }

    private CompletableFuture<Errors> appendTo(TransactionMarker marker, TopicPartition partition) {
        Optional<TopicMetadata> topic = topics.get(partition.topic());
        Optional<PartitionLog> found = topic.flatMap(t -> topics.partitionLog(t, partition.partition()));
        if (found.isEmpty()) { // as Kafka: no replica here, whether or not the cluster has the topic
            return CompletableFuture.completedFuture(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        PartitionLog log = found.get();
        int minInsync = TopicConfig.minInsyncReplicas(config, topic.get().configOverrides());
        LogException refused = leadership.appendRefusal(partition, minInsync);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused.error());
        }
        AppendResult appended;
        ByteBuf batch = new EndTransactionMarker(marker.result().controlType(), marker.coordinatorEpoch())
                .toBatch(HEAP, marker.producerId(), marker.producerEpoch(), clock.wallClockMs());
        try {
            appended = log.appendMarkerUnflushed(batch, marker.producerId(), marker.producerEpoch(),
                    marker.coordinatorEpoch(), marker.transactionVersion(), leadership.leaderEpoch(partition));
        } catch (LogException e) {
            return CompletableFuture.completedFuture(e.error());
        } catch (UncheckedIOException e) { // a full disk, or a log closed by a topic deletion under us
            return CompletableFuture.completedFuture(Errors.KAFKA_STORAGE_ERROR);
        } finally {
            batch.release();
        }
        leadership.onLeaderAppend(partition); // a leader alone in its ISR commits it at once
        fetchPurgatory.checkAndComplete(partition); // followers take the marker; read_committed fetches the LSO
        return durable(log, appended)
                .thenCompose(nothing -> DelayedProduce.awaitReplication(producePurgatory, leadership, log,
                        appended.lastOffset() + 1, minInsync, replicationTimeoutMs))
                .exceptionally(LeaderMarkerAppender::errorOf)
                .thenApply(error -> error == Errors.NONE && partition.topic().equals(InternalTopics.CONSUMER_OFFSETS)
                        ? tellListeners(partition, marker) : error);
    }

    /**
     * Tells the listeners of a marker that counts on an offsets partition, before the partition is answered (as
     * Kafka since KAFKA-17507 answers only once its group coordinator has applied it); one that fails turns the
     * answer into UNKNOWN_SERVER_ERROR, as Kafka's does, and the coordinator retries the marker.
     */
    private Errors tellListeners(TopicPartition partition, TransactionMarker marker) {
        try {
            for (TransactionCompletionListener listener : listeners) {
                listener.onTransactionCompleted(partition, marker.producerId(), marker.result());
            }
            return Errors.NONE;
        } catch (RuntimeException e) {
            LOG.error("Applying the {} of producer {} to the offsets of {} failed", marker.result(),
                    marker.producerId(), partition, e);
            return Errors.UNKNOWN_SERVER_ERROR;
        }
    }

    /** The fsync {@code flush.messages} asks for, or a new leader epoch's checkpoint, on the disk executor. */
    private CompletableFuture<Void> durable(PartitionLog log, AppendResult appended) {
        if (appended.flushDue()) {
            return CompletableFuture.runAsync(log::flush, disk);
        }
        if (log.leaderEpochCheckpointPending()) {
            return CompletableFuture.runAsync(log::writeLeaderEpochCheckpoint, disk);
        }
        return CompletableFuture.completedFuture(null);
    }

    private static Errors errorOf(Throwable failure) {
        return Failures.logError(failure, Errors.KAFKA_STORAGE_ERROR);
    }
}
