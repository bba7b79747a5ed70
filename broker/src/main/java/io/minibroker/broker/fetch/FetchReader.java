package io.minibroker.broker.fetch;

import io.minibroker.broker.log.AbortedTxn;
import io.minibroker.broker.log.BrokerCompressionType;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.FetchResponseView.FetchableTopicResponse;
import io.minibroker.protocol.message.view.FetchResponseView.PartitionData;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.io.UncheckedIOException;
import java.util.ArrayList;

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
     * FailedFetchRequests.
     */
    static Struct read(FetchPlan plan, BrokerTopicMetrics metrics) {
        FetchResponseView response = new FetchResponseView().sessionId(0);
        try {
            readInto(response, plan, metrics);
            return response.struct();
        } catch (RuntimeException e) { // the regions read so far would hold their segments' files open
            response.struct().recordsPayloads().forEach(RecordsPayload::release);
            countFailed(plan, metrics);
            throw e;
        }
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

    private static void readInto(FetchResponseView response, FetchPlan plan, BrokerTopicMetrics metrics) {
        int remaining = plan.maxBytes();
        int total = 0;
        for (FetchPlan.TopicPlan topic : plan.topics()) {
            FetchableTopicResponse topicResponse = response.addResponse();
            if (topic.id() != null) {
                topicResponse.topicId(topic.id());
            } else {
                topicResponse.topic(topic.name());
            }
            int topicBytes = 0; // metered once per topic: one look-up of its meter however many partitions it has
            String topicName = null; // the request names it by id from v13; its logs know the name
            for (FetchPlan.PartitionPlan partition : topic.partitions()) {
                PartitionData result = topicResponse.addPartition()
                        .partitionIndex(partition.index())
                        .records(Unpooled.EMPTY_BUFFER);
                Errors error = partition.error();
                PartitionLog log = partition.log();
                if (log != null && !plan.stillServes(log)) {
                    result.highWatermark(-1L);
                    error = log.isDeleted() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.NOT_LEADER_OR_FOLLOWER;
                } else if (log != null && plan.version() < ZSTD_FROM_VERSION
                        && log.config().compressionType() == BrokerCompressionType.ZSTD) {
                    // As Kafka's maybeConvertFetchedData: a client this old may not read zstd, which the topic
                    // keeps its batches in
                    result.highWatermark(-1L);
                    error = Errors.UNSUPPORTED_COMPRESSION_TYPE;
                } else if (log != null && partition.divergingEpoch() != null) {
                    // Kafka's readRecords: no records, the log's offsets as they are, and where the fetcher's
                    // last fetched epoch ends here, from which it truncates
                    result.highWatermark(log.highWatermark())
                            .lastStableOffset(log.lastStableOffset())
                            .logStartOffset(log.logStartOffset());
                    result.divergingEpoch().epoch(partition.divergingEpoch().epoch())
                            .endOffset(partition.divergingEpoch().endOffset());
                } else if (log != null) {
                    long highWatermark = log.highWatermark();
                    long readableEnd = readableEnd(plan, log);
                    // read_committed is told the LSO it read up to: one look-up, which a transaction ending
                    // meanwhile cannot split in two
                    long lastStableOffset = plan.readCommitted() ? readableEnd : log.lastStableOffset();
                    result.highWatermark(highWatermark)
                            .lastStableOffset(lastStableOffset)
                            .logStartOffset(log.logStartOffset());
                    try {
                        LogReadResult read = log.read(partition.fetchOffset(),
                                Math.min(partition.maxBytes(), Math.max(remaining, 0)), total == 0, readableEnd);
                        if (plan.readCommitted()) {
                            addAbortedTransactions(result, log, partition.fetchOffset(), readableEnd, read);
                        } else {
                            result.abortedTransactions(null); // as Kafka answers read_uncommitted (v4+)
                        }
                        if (!read.isEmpty()) {
                            remaining -= read.length();
                            total += read.length();
                            topicBytes += read.length();
                            topicName = log.topicPartition().topic();
                            result.records(read.toFileRegion()); // zero-copy: sent from the file
                        }
                    } catch (LogException e) {
                        error = e.error();
                    } catch (UncheckedIOException e) { // the segment went away under the read (retention, delete)
                        error = Errors.KAFKA_STORAGE_ERROR;
                    }
                    if (error != Errors.NONE) {
                        // As Kafka's createLogReadResult for a failed read (OFFSET_OUT_OF_RANGE among them): the
                        // offsets are unknown, -1, not the log's
                        result.highWatermark(-1L).lastStableOffset(-1L).logStartOffset(-1L);
                    }
                } else {
                    result.highWatermark(-1L);
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
                if (fetchOffset >= readableEnd) {
                    continue;
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
