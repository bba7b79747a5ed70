package io.minibroker.broker.share;

import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.log.AbortedTxn;
import io.minibroker.broker.log.FileChannelRecordBatch;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.SegmentFileRegion;
import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.message.view.ShareFetchResponseView.PartitionData;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.Unpooled;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.concurrent.Executor;

/**
 * The fetch part of one ShareFetch: the session's partitions, what its acknowledgements answered, and, when it is
 * answered, the records acquired for the member. Both the immediate answer and a parked {@link DelayedShareFetch}
 * use it; it acquires only in {@link #respond()}, which runs once, so no records are acquired for an answer that is
 * never sent.
 *
 * <p>Records are not copied: as Kafka's share fetch, the batch headers of the log are walked to acquire by offsets,
 * and the batches holding acquired records are sent as a slice of the segment file, as Fetch sends records (a
 * {@link SegmentFileRegion}, which the response owns until it is sent).
 */
final class ShareFetchWork {

    private final SharePartitionManager manager;
    private final ShareLogs logs;
    private final String groupId;
    private final String memberId;
    private final List<TopicIdPartition> partitions;
    /** What the member's principal may read: a session partition of a topic it may not is refused, not acquired. */
    private final TopicRights rights;
    /** MinBytes: a parked fetch waits for this many bytes of records it could acquire (or its MaxWaitMs). */
    private final int minBytes;
    /** MaxWaitMs: with none, the fetch is answered at once, but for share partitions whose state is loading. */
    private final int maxWaitMs;
    private final int maxBytes;
    private final RecordLimit recordLimit;
    /** How each partition's acknowledgements in this request were answered. */
    private final Map<TopicIdPartition, AcknowledgeResult> acknowledged;
    /** The acknowledgements this request carried: the records they released are not acquired in its answer. */
    private final Map<TopicIdPartition, List<Acknowledgement>> acknowledgements;
    /** The request's connection's event loop, where a share partition's load that this fetch starts ends. */
    private final Executor eventLoop;
    /** The listener the request came in on, whose endpoints name the leaders of partitions led elsewhere. */
    private final String listener;
    /**
     * The share partitions whose load this fetch waited for and saw fail, with the error it answers for them: the
     * fetch's own, as Kafka's ShareFetch keeps its erroneous partitions, so whichever thread answers it, and however
     * late, answers the error rather than nothing (and does not start another load for it).
     */
    private final Map<TopicIdPartition, Errors> loadErrors = new ConcurrentHashMap<>();
    /** What {@link #partitionOf} gives the manager to be told of a partition's failed load. */
    private final Map<TopicIdPartition, Consumer<Errors>> onLoadFailure = new ConcurrentHashMap<>();

    ShareFetchWork(SharePartitionManager manager, ShareLogs logs, String groupId, String memberId,
                   List<TopicIdPartition> partitions, TopicRights rights, int minBytes, int maxWaitMs, int maxBytes,
                   RecordLimit recordLimit, Map<TopicIdPartition, List<Acknowledgement>> acknowledgements,
                   Map<TopicIdPartition, AcknowledgeResult> acknowledged, Executor eventLoop, String listener) {
        this.eventLoop = eventLoop;
        this.listener = listener;
        this.rights = rights;
        this.minBytes = minBytes;
        this.maxWaitMs = maxWaitMs;
        this.manager = manager;
        this.logs = logs;
        this.groupId = groupId;
        this.memberId = memberId;
        this.partitions = partitions;
        this.maxBytes = maxBytes;
        this.recordLimit = recordLimit;
        this.acknowledgements = acknowledgements;
        this.acknowledged = acknowledged;
    }

    /**
     * How many records a fetch acquires (ShareFetch's MaxRecords, BatchSize and ShareAcquireMode): none with a
     * MaxRecords of 0 or less, as Kafka's SharePartition acquires none then.
     */
    record RecordLimit(ShareAcquireMode mode, int maxRecords, int batchSize) {
    }

    /**
     * Whether the fetch asks for nothing (MaxRecords or MaxBytes 0): Kafka 4.3.1's SharePartitionManager answers it at
     * once, whatever its MaxWaitMs, without loading or reading a share partition (processShareFetch), so only what
     * its KafkaApis checks itself is answered for the session's partitions.
     */
    boolean asksForNothing() {
        return recordLimit.maxRecords() == 0 || maxBytes == 0;
    }

    private SharePartitionKey keyOf(TopicIdPartition tp) {
        return new SharePartitionKey(groupId, tp.topicId(), tp.partition());
    }

    /** The share partition of {@code tp}, or null while it loads; a failed load leaves its error in loadErrors. */
    private SharePartition partitionOf(TopicIdPartition tp, PartitionLog log) {
        // One callback per partition, the same at every check, so that the manager registers it once per load.
        return manager.partition(keyOf(tp), log, eventLoop,
                onLoadFailure.computeIfAbsent(tp, p -> error -> loadErrors.put(p, error)));
    }

    /**
     * Whether the answer should go now: a partition that cannot be read, or records to acquire amounting to
     * {@code MinBytes}. As Kafka's DelayedShareFetch, a partition with something to acquire counts the log's bytes
     * from its next fetch offset to the high watermark; a share consumer's default MinBytes (1) needs just one, known
     * from memory (offsets); counting more reads batch headers (index look-ups and the headers' pread, from the page
     * cache), on the thread that checks, as Fetch's {@code FetchReader.canAnswer} does. A session with no partition
     * the member may read has nothing to wait for, and Kafka answers it at once.
     */
    boolean canAnswer() {
        int bytes = 0;
        boolean anyReadable = false;
        boolean loading = false;
        for (TopicIdPartition tp : partitions) {
            ShareLogs.Resolved resolved = logs.resolve(tp.topicId(), tp.partition());
            PartitionLog log = resolved.log();
            if (log == null) {
                return true;
            }
            if (!rights.mayRead(log.topicPartition().topic())) {
                continue; // answered refused whenever the fetch is answered; it does not hurry the answer (Kafka)
            }
            anyReadable = true;
            SharePartition partition = loadErrors.containsKey(tp) ? null : partitionOf(tp, log);
            if (loadErrors.containsKey(tp)) {
                return true; // its failure to answer
            }
            if (partition == null) {
                loading = true; // nothing to acquire until its state is loaded, which wakes this fetch
                continue;
            }
            partition.moveStartTo(log.logStartOffset());
            long readableEnd = partition.settings().readableEnd(log);
            if (!partition.canAcquire(readableEnd)) {
                continue;
            }
            long fetchOffset = partition.nextFetchOffset();
            if (minBytes <= 1 && fetchOffset < log.lastBatchEndOffset()) {
                return true; // records to acquire; from the last batch's end on (a truncation's gap) there are none
            }
            try {
                LogReadResult read = log.read(fetchOffset, maxBytes, bytes == 0, readableEnd);
                bytes += read.length();
                read.release();
            } catch (LogException | UncheckedIOException e) {
                return true; // the partition changed under the fetch: answer now
            }
            if (bytes >= minBytes) {
                return true;
            }
        }
        return !anyReadable || maxWaitMs <= 0 && !loading;
    }

    /**
     * How long a parked fetch may wait: its MaxWaitMs, or, for one asking not to wait whose share partitions are
     * loading, as long as the share coordinator may take to write (the load wakes it far sooner).
     */
    long waitMs(long loadWaitMs) {
        return maxWaitMs > 0 ? maxWaitMs : loadWaitMs;
    }

    /** What a parked fetch is watched on: appends to its logs and releases in its share partitions. */
    List<Object> watchKeys() {
        List<Object> keys = new ArrayList<>();
        for (TopicIdPartition tp : partitions) {
            ShareLogs.Resolved resolved = logs.resolve(tp.topicId(), tp.partition());
            if (resolved.log() != null) {
                keys.add(resolved.log().topicPartition());
            }
            keys.add(keyOf(tp));
        }
        return keys;
    }

    /**
     * Acquires and reads what there is, and builds the response with the acknowledgements' answers; a partition
     * refused because another node leads it names that leader, and the response its endpoint (KIP-951).
     */
    Struct respond() {
        ShareFetchResponseView response = new ShareFetchResponseView()
                .acquisitionLockTimeoutMs(manager.settings(groupId).recordLockDurationMs());
        try {
            ShareLeaderHints hints = new ShareLeaderHints(logs, listener);
            addPartitions(response, hints);
            hints.writeEndpoints(endpoint -> response.addNodeEndpoint().nodeId(endpoint.leaderId())
                    .host(endpoint.host()).port(endpoint.port()).rack(endpoint.rack()));
            return response.struct();
        } catch (RuntimeException e) { // the file regions acquired so far would hold their segments' files open
            response.struct().recordsPayloads().forEach(RecordsPayload::release);
            throw e;
        }
    }

    private void addPartitions(ShareFetchResponseView response, ShareLeaderHints hints) {
        Map<UUID, ShareFetchResponseView.ShareFetchableTopicResponse> topics = new LinkedHashMap<>();
        int remainingBytes = maxBytes;
        int remainingRecords = recordLimit.maxRecords();
        // The fetched partitions, then those only acknowledged; sets, as a session may hold thousands of partitions.
        Set<TopicIdPartition> fetched = new HashSet<>(partitions);
        Set<TopicIdPartition> answered = new LinkedHashSet<>(partitions);
        answered.addAll(acknowledged.keySet());
        for (TopicIdPartition tp : answered) {
            AcknowledgeResult ack = acknowledged.get(tp);
            Errors error = Errors.NONE;
            Acquired acquired = Acquired.NOTHING;
            if (fetched.contains(tp)) {
                ShareLogs.Resolved resolved = logs.resolve(tp.topicId(), tp.partition());
                // A partition led elsewhere is refused by the share partition's read, which a fetch asking for
                // nothing never reaches in Kafka; an unknown topic or partition its KafkaApis refuses first.
                error = resolved.error() == Errors.NOT_LEADER_OR_FOLLOWER && asksForNothing() ? Errors.NONE
                        : resolved.error();
                if (resolved.log() != null && !rights.mayRead(resolved.log().topicPartition().topic())) {
                    // A session partition whose READ was taken away since it joined: refused, nothing acquired.
                    error = Errors.TOPIC_AUTHORIZATION_FAILED;
                } else if (resolved.log() != null && remainingRecords > 0 && remainingBytes > 0) {
                    SharePartition partition = loadErrors.containsKey(tp) ? null : partitionOf(tp, resolved.log());
                    if (partition == null) {
                        error = loadErrors.getOrDefault(tp, Errors.NONE); // NONE while it loads: nothing yet
                    }
                    try {
                        acquired = partition == null ? Acquired.NOTHING // loading, or its load failed
                                : acquire(resolved.log(), partition, remainingBytes, remainingRecords,
                                        releasedHere(tp));
                        remainingBytes -= acquired.sizeInBytes();
                        remainingRecords -= acquired.count();
                    } catch (LogException e) {
                        error = e.error();
                    } catch (UncheckedIOException e) { // the segment went away under the read
                        error = Errors.KAFKA_STORAGE_ERROR;
                    }
                }
            }
            if (acquired.runs().isEmpty() && error == Errors.NONE && ack == null) {
                continue; // nothing to say about this partition
            }
            PartitionData data = topics.computeIfAbsent(tp.topicId(), id -> response.addResponse().topicId(id))
                    .addPartition()
                    .partitionIndex(tp.partition())
                    .errorCode(error.code())
                    .acknowledgeErrorCode((ack == null ? Errors.NONE : ack.error()).code())
                    .acknowledgeErrorMessage(ack == null ? null : ack.message());
            if (acquired.records() == null) {
                data.records(Unpooled.EMPTY_BUFFER);
            } else {
                data.records(acquired.records()); // zero-copy: sent from the segment file, as Fetch sends
            }
            hints.leaderOf(tp.topicId(), tp.partition(), error.code()).ifPresent(leader ->
                    data.currentLeader().leaderId(leader.leaderId()).leaderEpoch(leader.leaderEpoch()));
            for (AcquiredRecords run : acquired.runs()) {
                data.addAcquiredRecord().firstOffset(run.firstOffset()).lastOffset(run.lastOffset())
                        .deliveryCount((short) run.deliveryCount());
            }
        }
    }

    /**
     * What one share partition gave: its acquired runs and the batches that hold them, a region of the segment file
     * (null with none) that the response owns until it is sent.
     */
    private record Acquired(List<AcquiredRecords> runs, SegmentFileRegion records) {
        static final Acquired NOTHING = new Acquired(List.of(), null);

        int count() {
            return runs.stream().mapToInt(r -> (int) (r.lastOffset() - r.firstOffset() + 1)).sum();
        }

        int sizeInBytes() {
            return records == null ? 0 : records.sizeInBytes();
        }
    }

    /**
     * The offsets of {@code tp} this request's acknowledgements released. Kafka runs a ShareFetch's acknowledgements
     * and its fetch together, and a record released is not acquired again until its new state is written: so the
     * answer never hands a member back what it has just released. Here the fetch runs once they are written, and
     * leaves them out itself.
     */
    private LongPredicate releasedHere(TopicIdPartition tp) {
        List<Acknowledgement> batches = acknowledgements.get(tp);
        if (batches == null || acknowledged.get(tp).error() != Errors.NONE) {
            return offset -> false;
        }
        List<Acknowledgement> releasing = batches.stream().filter(Acknowledgement::releasesAny).toList();
        if (releasing.isEmpty()) {
            return offset -> false;
        }
        return offset -> {
            for (Acknowledgement batch : releasing) { // asked per offset acquired: no stream each time
                if (batch.releases(offset)) {
                    return true;
                }
            }
            return false;
        };
    }

    /**
     * Acquires from one share partition up to the limits: below the high watermark, or for a read_committed group
     * below the last stable offset, archiving what aborted transactions wrote. As Kafka's share fetch, it reads
     * batch headers only, up to {@code bytes} of the log and no further than {@code records} can be acquired, and
     * answers with a slice of the segment file holding the batches of the acquired records, sent as Fetch sends
     * records: a backlog is never copied into memory.
     */
    private Acquired acquire(PartitionLog log, SharePartition partition, int bytes, int records,
                             LongPredicate inTransition) {
        partition.moveStartTo(log.logStartOffset());
        long fetchOffset = partition.nextFetchOffset();
        boolean readCommitted = partition.settings().readCommitted();
        long readableEnd = partition.settings().readableEnd(log);
        if (fetchOffset >= readableEnd) {
            return Acquired.NOTHING;
        }
        LogReadResult read = log.read(fetchOffset, bytes, true, readableEnd);
        boolean sent = false;
        try {
            List<FileChannelRecordBatch> batches = batchesToAcquire(read, fetchOffset, partition.endOffset(), records);
            if (batches.isEmpty()) {
                return Acquired.NOTHING;
            }
            List<long[]> offsets = batches.stream().map(b -> new long[] {b.baseOffset(), b.lastOffset()}).toList();
            List<long[]> aborted = readCommitted
                    ? abortedBatches(batches, log.abortedTransactions(fetchOffset, readableEnd)) : List.of();
            List<AcquiredRecords> acquired;
            synchronized (partition) { // no other request sees the aborted records acquired
                acquired = partition.archiveAborted(partition.acquire(memberId, recordLimit.mode(),
                        recordLimit.batchSize(), records, offsets, inTransition), aborted);
            }
            if (acquired.isEmpty()) {
                return Acquired.NOTHING;
            }
            manager.locksTaken(partition);
            long first = acquired.get(0).firstOffset();
            long last = acquired.get(acquired.size() - 1).lastOffset();
            FileChannelRecordBatch from = null;
            FileChannelRecordBatch to = null;
            for (FileChannelRecordBatch batch : batches) { // only the batches holding acquired records are sent
                if (batch.lastOffset() >= first && batch.baseOffset() <= last) {
                    from = from == null ? batch : from;
                    to = batch;
                }
            }
            SegmentFileRegion region = read.slice(from, to).toFileRegion();
            sent = true;
            return new Acquired(acquired, region);
        } finally {
            if (!sent) {
                read.release();
            }
        }
    }

    /**
     * The whole batches of a read that an acquisition of {@code records} records can reach, by their headers: the
     * walk stops once the batches hold that many offsets at or past the share partition's end offset (each of which
     * is acquired, unless the window fills first), as the records before it may be held by other members.
     */
    private static List<FileChannelRecordBatch> batchesToAcquire(LogReadResult read, long fetchOffset,
                                                                 long endOffset, int records) {
        List<FileChannelRecordBatch> batches = new ArrayList<>();
        long fresh = 0;
        long from = Math.max(fetchOffset, endOffset);
        for (FileChannelRecordBatch batch : read.batches()) {
            batches.add(batch);
            fresh += Math.max(0, batch.lastOffset() - Math.max(batch.baseOffset(), from) + 1);
            if (fresh >= records) {
                break;
            }
        }
        return batches;
    }

    /**
     * The offsets of the batches read that aborted transactions wrote, in order: a transaction's data batch of a
     * producer whose aborted transaction (from the {@code .txnindex}) began at or before it and ended, with its
     * ABORT marker, after it. Markers are not among them: as in Kafka, they are acquired like any record and the
     * consumer acknowledges them as gaps.
     */
    private static List<long[]> abortedBatches(List<FileChannelRecordBatch> batches,
                                               List<AbortedTxn> abortedTransactions) {
        List<long[]> aborted = new ArrayList<>();
        for (FileChannelRecordBatch batch : batches) {
            if (!batch.isTransactional() || batch.isControl()) {
                continue;
            }
            for (AbortedTxn txn : abortedTransactions) {
                if (txn.producerId() == batch.producerId() && txn.firstOffset() <= batch.baseOffset()
                        && batch.lastOffset() < txn.lastOffset()) {
                    aborted.add(new long[] {batch.baseOffset(), batch.lastOffset()});
                    break;
                }
            }
        }
        return aborted;
    }
}
