package io.minibroker.broker.fetch;

import io.minibroker.broker.fetch.session.CachedPartition;
import io.minibroker.broker.fetch.session.FetchContext;
import io.minibroker.broker.fetch.session.FetchManager;
import io.minibroker.broker.fetch.session.FetchSession;
import io.minibroker.broker.fetch.session.SessionPartition;
import io.minibroker.broker.log.AbortedTxn;
import io.minibroker.broker.log.BrokerCompressionType;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.FetchResponseView.FetchableTopicResponse;
import io.minibroker.protocol.message.view.FetchResponseView.PartitionData;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;

/**
 * Reads what a fetch asks for and builds its response: per partition up to its {@code PartitionMaxBytes}, in
 * all up to the request's {@code MaxBytes}, but always at least one whole batch for the first partition with
 * data (so a batch larger than the limits still gets through, as in Kafka). Only data below the high watermark
 * is returned, below the last stable offset for read_committed, with the aborted transactions it overlaps.
 *
 * <p>The records are not copied: each partition's are a {@link io.minibroker.broker.log.SegmentFileRegion},
 * which the response encoder leaves out of its buffers and the connection sends from the segment file. The
 * response owns the regions until then.
 */
final class FetchReader {

    private static final int LAST_VERSION_WITHOUT_STORAGE_ERROR = 5;
    /** Fetch v10 came with zstd (KIP-110): an older fetch of a topic whose compression.type is zstd is refused. */
    private static final int ZSTD_FROM_VERSION = 10;

    private FetchReader() {
    }

    /**
     * The answer to the plan; the record bytes a consumer is sent are counted in {@code metrics}' BytesOut, a
     * follower's in ReplicationBytesOut, and the partitions of a read that failed unexpectedly in
     * FailedFetchRequests. A full fetch that may open a session opens it here, with what it was answered; an
     * incremental one names only the partitions that changed, unless a later request of its session came meanwhile.
     */
    static Struct read(FetchPlan plan, BrokerTopicMetrics metrics) {
        return read(plan, metrics, false);
    }

    /**
     * {@link #read(FetchPlan, BrokerTopicMetrics)} for a fetch that parked and completes now: each partition's
     * preferred read replica is chosen again, as Kafka's delayed fetch reads (and chooses) anew.
     */
    static Struct readParked(FetchPlan plan, BrokerTopicMetrics metrics) {
        return read(plan, metrics, true);
    }

    private static Struct read(FetchPlan plan, BrokerTopicMetrics metrics, boolean chooseAgain) {
        FetchResponseView response = new FetchResponseView().sessionId(FetchSession.INVALID_SESSION_ID);
        try {
            if (plan.context() instanceof FetchContext.Incremental incremental) {
                FetchSession session = incremental.session();
                response.sessionId(session.id());
                synchronized (session) { // the session's partitions are told what they were answered as it is read
                    if (!session.answers(incremental.requestEpoch())) {
                        return response.errorCode(Errors.INVALID_FETCH_SESSION_EPOCH.code()).struct();
                    }
                    readInto(response, plan, metrics, chooseAgain);
                }
                return response.struct();
            }
            readInto(response, plan, metrics, chooseAgain);
            if (plan.context() instanceof FetchContext.Full full) {
                int size = plan.partitionCount();
                FetchSession session = full.open(size, () -> cachedPartitions(full, size, response));
                if (session != null) {
                    response.sessionId(session.id());
                }
            }
            return response.struct();
        } catch (RuntimeException e) { // the regions read so far would hold their segments' files open
            response.struct().recordsPayloads().forEach(RecordsPayload::release);
            countFailed(plan, metrics);
            throw e;
        }
    }

    /**
     * A new session's partitions: each as the full fetch asked for it (the request's partitions, in the order the
     * answer has them), with what it was answered.
     */
    private static Map<SessionPartition, CachedPartition> cachedPartitions(FetchContext.Full full, int size,
                                                                           FetchResponseView response) {
        Map<SessionPartition, CachedPartition> cached = FetchManager.newPartitionMap(size);
        Iterator<FetchableTopicResponse> answered = response.responses().iterator();
        for (FetchRequestView.FetchTopic topic : full.request().topics()) {
            String name = full.usesTopicIds() ? null : topic.topic();
            UUID id = full.usesTopicIds() ? topic.topicId() : null;
            Iterator<PartitionData> answers = answered.next().partitions().iterator();
            for (FetchRequestView.FetchPartition partition : topic.partitions()) {
                PartitionData answer = answers.next();
                SessionPartition key = new SessionPartition(name, id, partition.partition());
                cached.put(key, CachedPartition.answered(key, partition.fetchOffset(), partition.logStartOffset(),
                        partition.partitionMaxBytes(), partition.currentLeaderEpoch(), partition.lastFetchedEpoch(),
                        answer.highWatermark(), answer.logStartOffset()));
            }
        }
        return cached;
    }

    private static void countFailed(FetchPlan plan, BrokerTopicMetrics metrics) {
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                if (partition.log() != null) {
                    metrics.topic(partition.log().topicPartition().topic()).failedFetchRequests().increment();
                }
            }
        }
    }

    /**
     * Reads each partition of the plan into the response. Each partition's offsets and records are found first and
     * written only if the answer names it: always, but for an incremental fetch, whose unchanged partitions are left
     * out (and a topic with none left, too) without a part of the answer made for them.
     */
    private static void readInto(FetchResponseView response, FetchPlan plan, BrokerTopicMetrics metrics,
                                 boolean chooseAgain) {
        int remaining = plan.maxBytes();
        int total = 0;
        int ordinal = 0;
        // Counted against the leader's replication throttle once the whole answer is read, as Kafka's KafkaApis
        // records a follower's answer: every partition of it is held back or not by the rate from before it
        long throttledToFollower = 0;
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            // Every topic a full fetch names is answered, with no partitions if it named none, as before sessions (a
            // new session's partitions are read off the answer in the request's order); an incremental answer names
            // a topic only for a partition it names.
            FetchableTopicResponse topicResponse = plan.context() instanceof FetchContext.Incremental
                    ? null : addTopic(response, topic);
            int topicBytes = 0; // metered once per topic: one look-up of its meter however many partitions it has
            String topicName = null; // the request names it by id from v13; its logs know the name
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                CachedPartition cached = plan.cachedAt(ordinal++);
                Errors error = partition.error();
                PartitionLog log = partition.log();
                long highWatermark = -1;
                long lastStableOffset = -1;
                long logStartOffset = -1;
                LogReadResult read = null; // a read made, even of nothing: its answer names aborted transactions
                int preferred = chooseAgain ? plan.choosePreferredReadReplica(partition)
                        : partition.preferredReadReplica();
                if (log != null && !plan.stillServes(log)) {
                    error = log.isDeleted() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NOT_LEADER_OR_FOLLOWER;
                } else if (log != null && plan.version() < ZSTD_FROM_VERSION
                        && log.config().compressionType() == BrokerCompressionType.ZSTD) {
                    // As Kafka's maybeConvertFetchedData: a client this old may not read zstd, which the topic
                    // keeps its batches in
                    error = Errors.UNSUPPORTED_COMPRESSION_TYPE;
                } else if (log != null && (partition.divergingEpoch() != null || preferred >= 0)) {
                    // Kafka's readRecords: no records, the log's offsets as they are, and where the fetcher's
                    // last fetched epoch ends here, from which it truncates; or, as Kafka's readFromLog, the replica
                    // the consumer is to read from instead
                    highWatermark = log.highWatermark();
                    lastStableOffset = log.lastStableOffset();
                    logStartOffset = log.logStartOffset();
                } else if (log != null) {
                    highWatermark = log.highWatermark();
                    long readableEnd = readableEnd(plan, log);
                    // read_committed is told the LSO it read up to: one look-up, which a transaction ending
                    // meanwhile cannot split in two
                    lastStableOffset = plan.readCommitted() ? readableEnd : log.lastStableOffset();
                    logStartOffset = log.logStartOffset();
                    try {
                        // A throttled follower is answered with the offsets and no records, as Kafka's readFromLog
                        read = plan.throttled(partition) ? LogReadResult.EMPTY : log.read(partition.fetchOffset(),
                                Math.min(partition.maxBytes(), Math.max(remaining, 0)), total == 0, readableEnd);
                    } catch (LogException e) {
                        error = e.error();
                    } catch (UncheckedIOException e) { // the segment went away under the read (retention, delete)
                        error = Errors.KAFKA_STORAGE_ERROR;
                    }
                    if (error != Errors.NONE) {
                        // As Kafka's createLogReadResult for a failed read (OFFSET_OUT_OF_RANGE among them): the
                        // offsets are unknown, -1, not the log's
                        highWatermark = -1;
                        lastStableOffset = -1;
                        logStartOffset = -1;
                    }
                }
                boolean hasRecords = read != null && !read.isEmpty();
                boolean pointed = log != null && error == Errors.NONE && preferred >= 0;
                if (cached != null && !cached.mustRespond(hasRecords, error != Errors.NONE,
                        partition.divergingEpoch() != null, pointed, highWatermark, logStartOffset)) {
                    continue; // nothing new for the fetcher: an empty read holds no file
                }
                if (topicResponse == null) {
                    topicResponse = addTopic(response, topic);
                }
                PartitionData result = topicResponse.addPartition()
                        .partitionIndex(partition.index())
                        .records(Unpooled.EMPTY_BUFFER)
                        .highWatermark(highWatermark)
                        .lastStableOffset(lastStableOffset)
                        .logStartOffset(logStartOffset);
                if (pointed) {
                    result.preferredReadReplica(preferred);
                } else if (log != null && partition.divergingEpoch() != null && error == Errors.NONE) {
                    result.divergingEpoch().epoch(partition.divergingEpoch().epoch())
                            .endOffset(partition.divergingEpoch().endOffset());
                }
                if (read != null) {
                    if (plan.readCommitted()) {
                        addAbortedTransactions(result, log, partition.fetchOffset(), lastStableOffset, read);
                    } else {
                        result.abortedTransactions(null); // as Kafka answers read_uncommitted (v4+)
                    }
                }
                if (hasRecords) {
                    if (plan.fromFollower() && plan.leadership().isLeaderThrottled(log.topicPartition())) {
                        throttledToFollower += read.length();
                    }
                    remaining -= read.length();
                    total += read.length();
                    topicBytes += read.length();
                    topicName = log.topicPartition().topic();
                    result.records(read.toFileRegion()); // zero-copy: sent from the file
                    if (cached != null) {
                        ((FetchContext.Incremental) plan.context()).session().readLast(cached);
                    }
                }
                result.errorCode(storageErrorFor(plan.version(), error).code());
            }
            if (topicBytes > 0) {
                if (plan.fromFollower()) {
                    metrics.replicatedOut(topicBytes);
                } else {
                    metrics.topic(topicName).bytesOut().increment(topicBytes);
                }
            }
        }
        if (plan.fromFollower()) {
            plan.leadership().answeredFollower(throttledToFollower);
        }
    }

    private static FetchableTopicResponse addTopic(FetchResponseView response, FetchPlan.TopicPlan topic) {
        FetchableTopicResponse topicResponse = response.addResponse();
        return topic.id() != null ? topicResponse.topicId(topic.id()) : topicResponse.topic(topic.name());
    }

    /**
     * KAFKA_STORAGE_ERROR came with Fetch v6: an older client would take it for a fatal unknown error, so Kafka's
     * KafkaApis answers it NOT_LEADER_OR_FOLLOWER, which makes the client refresh its metadata and retry.
     */
    static Errors storageErrorFor(short version, Errors error) {
        return error == Errors.KAFKA_STORAGE_ERROR && version <= LAST_VERSION_WITHOUT_STORAGE_ERROR
                ? Errors.NOT_LEADER_OR_FOLLOWER : error;
    }

    /**
     * Whether the plan should be answered now: {@code MinBytes} of data it may read, or a partition
     * whose fetch offset left the log (Kafka answers that at once, so the consumer can reset). It runs on every
     * append to a watched partition, so it stops as soon as it knows, and with {@code MinBytes <= 1} (what
     * consumers send by default) it compares offsets only and reads no index, unless the fetch offset lies past the
     * last batch, in a gap a truncation left below the log end (Kafka's read there finds nothing, and the fetch waits).
     */
    static boolean canAnswer(FetchPlan plan) {
        int total = 0;
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                PartitionLog log = partition.log();
                if (log == null) {
                    continue;
                }
                long fetchOffset = partition.fetchOffset();
                long readableEnd = readableEnd(plan, log);
                if (fetchOffset > log.logEndOffset() || fetchOffset < log.logStartOffset() || !plan.stillServes(log)) {
                    return true; // answered now: the client resets its offset, or finds the new leader
                }
                if (fetchOffset >= readableEnd || plan.throttled(partition)) {
                    continue; // a throttled follower's partition has nothing to give, as in Kafka's DelayedFetch
                }
                if (plan.minBytes() <= 1 && fetchOffset < log.lastBatchEndOffset()) {
                    return true; // data to read: an offset from the last batch's end on (a gap) has none
                }
                try {
                    LogReadResult read = log.read(fetchOffset, partition.maxBytes(), total == 0, readableEnd);
                    total += read.length();
                    read.release();
                } catch (LogException | UncheckedIOException e) {
                    return true; // the partition changed under the fetch: answer now with its error
                }
                if (total >= plan.minBytes()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A read_committed answer names the aborted transactions its records overlap (Kafka's AbortedTransactions), so
     * the consumer drops their batches; an empty list when there are none or no records. The range searched ends at
     * the readable end rather than after the batches read, which may name transactions beyond them: a consumer only
     * acts on one when it meets that producer's batches.
     */
    private static void addAbortedTransactions(PartitionData result, PartitionLog log, long fetchOffset,
                                               long readableEnd, LogReadResult read) {
        result.abortedTransactions(new ArrayList<>());
        if (read.isEmpty()) {
            return;
        }
        for (AbortedTxn aborted : log.abortedTransactions(fetchOffset, readableEnd)) {
            result.addAbortedTransaction().producerId(aborted.producerId()).firstOffset(aborted.firstOffset());
        }
    }

    /**
     * Consumers read below the high watermark, or with read_committed below the last stable offset; followers read
     * the whole log, which is how they replicate it.
     */
    private static long readableEnd(FetchPlan plan, PartitionLog log) {
        if (plan.fromFollower()) {
            return log.logEndOffset();
        }
        return plan.readCommitted() ? log.lastStableOffset() : log.highWatermark();
    }
}
