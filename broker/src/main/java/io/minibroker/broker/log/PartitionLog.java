package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's log: a directory {@code <log.dir>/<topic>-<partition>/} of segments ({@link LogSegment}),
 * the last of which, the active segment, takes appends.
 *
 * <pre>
 * orders-0/00000000000000000000.{log,index,timeindex}   offsets 0..1233
 *          00000000000000001234.{log,index,timeindex}   offsets 1234..   (active)
 * logStartOffset 0 (or later after retention / DeleteRecords), logEndOffset = the next offset to assign
 * </pre>
 * One writer at a time (appends, rolls, retention, truncation all hold this object's monitor);
 * reads take no lock: they find their segment in a concurrent map and read up to the sizes published by
 * the writer after each write. A flush holds the monitor only to note what to fsync and, afterwards, how far
 * it got: the fsync itself runs unlocked, so an append on an event loop never waits for a disk sync.
 *
 * <p>It coordinates parts that each have one job, and owns the lock they are kept under: {@link LogOffsets} holds
 * the offsets (log start, log end, high watermark), {@link LogValidator} checks an append before the lock is taken
 * (and a follower's offsets at the write), {@link LogWriter} stamps and writes it and rolls segments,
 * {@link LogSegments} holds the segments and their files, {@link LogReader} reads without the lock,
 * {@link LogRetention} decides which segments go from the start, {@link LogTruncation} cuts the log back for a
 * follower, {@link LogFlushState} keeps the recovery point and when to flush (under this monitor),
 * {@link LeaderEpochCache} the leader epochs ({@link LogRecovery} restores it on open), {@link LogTransactions} the
 * open transactions, the last stable offset and the aborted transaction indexes.
 */
public final class PartitionLog implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PartitionLog.class);

    private final TopicPartition topicPartition;
    private final Clock clock;
    /** The segments and the active one: changed under this object's monitor, read without a lock. */
    private final LogSegments segments;
    /** Reads, searches: without a lock. */
    private final LogReader reader;
    private volatile LogConfig config;
    /** The log start, log end and high watermark: changed under this object's monitor, read without a lock. */
    private final LogOffsets offsets;
    /** Its topic was deleted: what was parked on it is answered UNKNOWN_TOPIC_OR_PARTITION. */
    private volatile boolean deleted;
    /** The recovery point and what decides the next flush: guarded by this object's monitor. */
    private final LogFlushState flushState;
    /** The leader epochs of this log's batches and where each starts ({@code leader-epoch-checkpoint}). */
    private LeaderEpochCache epochCache;
    /** The transactions open in this log: what its last stable offset is made of. Changed under this monitor. */
    private final LogTransactions transactions;
    /** Stamps and writes checked batches, and rolls: under this monitor. */
    private final LogWriter writer;
    /** Cuts the log back for a follower: under this monitor. */
    private final LogTruncation truncation;
    /** Kafka's {@code partition.metadata}: the topic id, as read when the log opened. */
    private final PartitionMetadataFile partitionMetadata;

    private PartitionLog(TopicPartition topicPartition, Path dir, LogConfig config, Clock clock,
                         LogRecovery.Loaded loaded, long logStartOffset, long recoveryPoint,
                         long producerIdExpirationMs, FileDeletions deletions) {
        this.topicPartition = topicPartition;
        this.config = config;
        this.clock = clock;
        this.segments = new LogSegments(topicPartition, dir, loaded.segments(), deletions);
        this.offsets = new LogOffsets(logStartOffset, this.segments.firstBaseOffset(),
                this.segments.active().nextOffset());
        this.reader = new LogReader(this, this.segments);
        this.transactions = new LogTransactions(dir, this.segments, loaded.snapshotOffsets(), producerIdExpirationMs);
        this.flushState = new LogFlushState(Math.min(recoveryPoint, offsets.logEndOffset()), clock.millis());
        this.writer = new LogWriter(this, this.segments, offsets, transactions, flushState);
        this.truncation = new LogTruncation(topicPartition, this.segments, offsets, flushState, transactions);
        this.partitionMetadata = loaded.partitionMetadata();
    }

    /**
     * Opens (creating if need be) the log of {@code topicPartition} under {@code logDir}, recovering it
     * with {@link LogRecovery} unless it was shut down cleanly.
     *
     * @param recoveryPoint          the checkpointed offset up to which the log was flushed (0 if unknown)
     * @param logStartOffset         the checkpointed log start offset (0 if unknown)
     * @param producerIdExpirationMs {@code producer.id.expiration.ms}: the producers of a snapshot idle that long by
     *                               {@code clock} are left out as it loads (here and after a truncation), as Kafka's are
     * @param deletions              deletes the files of the segments this log drops, and its directory once deleted,
     *                               after their delay and off its lock (they are renamed under it)
     */
    public static PartitionLog open(Path logDir, TopicPartition topicPartition, LogConfig config, Clock clock,
                                    long recoveryPoint, long logStartOffset, boolean cleanShutdown,
                                    long producerIdExpirationMs, FileDeletions deletions) throws IOException {
        Path dir = logDir.resolve(topicPartition.dirName());
        LogRecovery.Loaded loaded = LogRecovery.load(dir, config, clock.millis(), recoveryPoint, logStartOffset,
                cleanShutdown);
        PartitionLog partitionLog = new PartitionLog(topicPartition, dir, config, clock, loaded, logStartOffset,
                cleanShutdown ? Long.MAX_VALUE : recoveryPoint, producerIdExpirationMs, deletions);
        partitionLog.loadEpochCache(cleanShutdown);
        partitionLog.replayTransactions(partitionLog.recoveryPoint());
        if (!cleanShutdown) {
            // Whatever survived validation is now the log; make it durable so it is not recovered again.
            partitionLog.flush();
        }
        log.info("Opened {} with offsets {}..{} in {} segments{}", topicPartition, partitionLog.logStartOffset(),
                partitionLog.logEndOffset(), partitionLog.segmentCount(), cleanShutdown ? "" : " after recovery");
        return partitionLog;
    }

    /** Sets up the leader epoch cache as {@link LogRecovery#loadEpochCache} restores it; before the log is shared. */
    private synchronized void loadEpochCache(boolean cleanShutdown) throws IOException {
        epochCache = LogRecovery.loadEpochCache(this, cleanShutdown);
    }

    /**
     * Rebuilds the producers, the open transactions and the aborted indexes' missing entries from the newest
     * producer snapshot and the log after it: on opening, after a cut.
     */
    private synchronized void replayTransactions(long replayFrom) throws IOException {
        transactions.replay(offsets.logEndOffset(), replayFrom, clock.millis());
    }

    /** The leader epochs of this log: epoch to start offset, ascending. */
    public synchronized Map<Integer, Long> leaderEpochs() {
        return epochCache.entries();
    }

    /**
     * This replica leads from now on in {@code epoch}: it starts at the log end (Kafka assigns it on becoming
     * leader, before any append), so that the previous epoch ends here even while no batch of the new one exists.
     */
    public void assignLeaderEpoch(int epoch) {
        synchronized (this) {
            epochCache.assign(epoch, offsets.logEndOffset());
        }
        writeLeaderEpochCheckpoint(); // written before the caller leads, outside the lock appends need
    }

    /**
     * {@link #assignLeaderEpoch} without the write, for a single node, which leads each log from the moment it opens
     * or creates it: a start on 10,000 partitions must not wait for 10,000 fsyncs. The epoch is answered at once, and
     * the checkpoint takes it with the epoch's first batch, before that batch is acknowledged (see
     * {@link LeaderEpochCache#assignInMemory}); one lost meanwhile is assigned again at the next start.
     */
    public synchronized void assignLeaderEpochInMemory(int epoch) {
        epochCache.assignInMemory(epoch, offsets.logEndOffset());
    }

    /**
     * Whether a leader's append started an epoch the {@code leader-epoch-checkpoint} does not have yet: the
     * caller has {@link #writeLeaderEpochCheckpoint} run off the event loop before it acknowledges the records.
     */
    public boolean leaderEpochCheckpointPending() {
        return epochCache.flushPending();
    }

    /** Writes (and fsyncs) the leader epoch checkpoint if a change is not on disk yet; waits on the disk. */
    public void writeLeaderEpochCheckpoint() {
        if (deleted) {
            return; // its directory is gone with it
        }
        try {
            epochCache.flush();
        } catch (IOException e) {
            throw storageError("cannot checkpoint the leader epochs", e);
        }
    }

    /** The leader epoch of the batch holding {@code offset}, -1 if none is known. */
    public int epochForOffset(long offset) {
        return epochCache.epochForOffset(offset);
    }

    /** The latest leader epoch of this log, -1 if none. */
    public synchronized int latestEpoch() {
        return epochCache.latestEpoch();
    }

    /** Where the latest leader epoch of this log starts, -1 if none is known. */
    public synchronized long latestEpochStartOffset() {
        return epochCache.latestEpochStartOffset();
    }

    /** Where {@code epoch} ends in this log, as OffsetForLeaderEpoch answers (Kafka's endOffsetForEpoch). */
    public synchronized LeaderEpochCache.EpochEnd endOffsetForEpoch(int epoch) {
        return epochCache.endOffsetFor(epoch, offsets.logEndOffset());
    }

    /**
     * Appends the v2 batches in {@code records} (a producer's, as received) as one unit: offsets are
     * assigned from the log end offset by rewriting base offsets in place, the leader epoch is stamped,
     * and under LogAppendTime the broker's time is set. The batches are then written unchanged, unless the
     * topic's {@code compression.type} asks for another codec: then a recompressed copy is stamped and written,
     * and {@code records} keeps its offsets as sent (a header corrected by validation is corrected in place
     * either way). The caller keeps ownership of {@code records}. Fsyncs on this thread when {@code flush.messages}
     * is reached, and writes the leader epoch checkpoint when the append started an epoch: for callers that may
     * wait on the disk.
     */
    public AppendResult append(ByteBuf records, int leaderEpoch) {
        return flushedAsDue(appendUnflushed(records, leaderEpoch));
    }

    /**
     * Appends one batch a coordinator wrote to its topic as this log's leader (Kafka's append with origin
     * COORDINATOR), as {@link #append}. A batch of a producer (a TxnOffsetCommit's transactional offsets) is checked
     * against the producer's state under the lock of the write: an epoch older than the producer's here is
     * INVALID_PRODUCER_EPOCH, and one that would open the producer's transaction here must present the guard of the
     * verification started before its transaction coordinator was asked ({@link #startTransactionVerification}),
     * still held, else INVALID_TXN_STATE: the transaction ended meanwhile, and the batch would open one no
     * coordinator knows of. Sequences are not checked (a coordinator's batches carry none), nor are duplicates.
     *
     * @param guard the verification's guard, {@link VerificationGuard#SENTINEL} if none was started, or null when
     *              transaction verification is off ({@code transaction.partition.verification.enable}); unused for
     *              a batch of no producer
     * @throws LogException INVALID_PRODUCER_EPOCH or INVALID_TXN_STATE if the producer's state refuses it, or the
     *     log's error
     */
    public AppendResult appendAsCoordinator(ByteBuf batch, int leaderEpoch, VerificationGuard guard) {
        RecordBatch header = RecordBatch.wrap(batch);
        AppendResult appended;
        try (CheckedAppend checked = checkForAppend(batch)) {
            synchronized (this) {
                if (header.producerId() >= 0) {
                    transactions.checkCoordinatorBatch(header, guard);
                }
                appended = appendUnflushed(checked, leaderEpoch);
            }
        }
        return flushedAsDue(appended);
    }

    /** Fsyncs on this thread if {@code flush.messages} is reached, and writes a new leader epoch's checkpoint. */
    private AppendResult flushedAsDue(AppendResult appended) {
        if (appended.flushDue()) {
            flush();
        }
        writeLeaderEpochCheckpoint();
        return appended;
    }

    /**
     * {@link #append} without the fsync: the records reach the page cache only, and a new epoch the epoch cache
     * only. A caller that must not wait on the disk (an event loop) reads {@link AppendResult#flushDue()} and asks
     * {@link #leaderEpochCheckpointPending()} and, if so, has {@link #flush()} or {@link #writeLeaderEpochCheckpoint()}
     * run elsewhere before it acknowledges the records.
     */
    public AppendResult appendUnflushed(ByteBuf records, int leaderEpoch) {
        try (CheckedAppend checked = checkForAppend(records)) {
            return appendUnflushed(checked, leaderEpoch);
        }
    }

    /**
     * A leader's checks of a producer's records, {@link LogValidator} included, without the log's lock: framing,
     * sizes, CRCs, the records themselves, and the copy in the topic's codec if it differs. Write the result with
     * {@link #appendUnflushed(CheckedAppend, int)}; the caller closes it either way.
     *
     * @throws LogException the partition's error if they are refused ({@link RecordValidationException} for
     *     some records' faults)
     */
    public CheckedAppend checkForAppend(ByteBuf records) {
        return LogValidator.validateForAppend(this, records, config, true, clock.millis());
    }

    /** {@link #appendUnflushed(ByteBuf, int)} of records this log has checked; the caller still closes them. */
    public AppendResult appendUnflushed(CheckedAppend checked, int leaderEpoch) {
        if (checked.log != this) {
            throw new IllegalArgumentException("records checked for " + checked.log.topicPartition + " written to "
                    + topicPartition);
        }
        synchronized (this) {
            return write(checked, leaderEpoch, true);
        }
    }

    /**
     * {@link #appendUnflushed(CheckedAppend, int)} of an idempotent producer's batch ({@code batch}, the client's, whose
     * records {@code checked} holds), checked against the producer's state under the lock of the write, so two
     * retries cannot both append (Kafka's ProducerAppendInfo for a client's batch): a repeat of one of the
     * producer's last five batches is not written again but answered with the offsets it got then. A transactional
     * batch that would open the producer's transaction here must present the guard of its verification
     * ({@link #startTransactionVerification}), still held: see {@link VerificationGuard}.
     *
     * @param guard the verification's guard, {@link VerificationGuard#SENTINEL} if the append did not verify, or
     *              null when transaction verification is off ({@code transaction.partition.verification.enable})
     * @throws LogException INVALID_PRODUCER_EPOCH, OUT_OF_ORDER_SEQUENCE_NUMBER or INVALID_TXN_STATE if the
     *     producer's state refuses it, or the log's error
     */
    public AppendResult appendIdempotentUnflushed(CheckedAppend checked, RecordBatch batch, int leaderEpoch,
                                                  VerificationGuard guard) {
        synchronized (this) {
            LogProducers.BatchMetadata duplicate = transactions.checkBatch(batch, guard);
            if (duplicate != null) {
                // Kafka answers a repeat with the stored batch's timestamp as its LogAppendTime, whatever the type
                return new AppendResult(duplicate.firstOffset(), duplicate.lastOffset(), duplicate.timestamp(), -1, -1,
                        flushDue());
            }
            return appendUnflushed(checked, leaderEpoch);
        }
    }

    /**
     * Starts a verification of a transactional producer's batch as this log's leader, before the coordinator is asked
     * whether this partition is in the producer's transaction (Kafka's maybeStartTransactionVerification): the guard
     * to present with the append, {@link VerificationGuard#SENTINEL} if the producer has its transaction open here at
     * {@code epoch} already. A producer's verifications not yet followed by an append share one guard, and hold its
     * batches above the lowest sequence verified back (OUT_OF_ORDER_SEQUENCE_NUMBER) until that one is in.
     *
     * @param sequence          the base sequence of the batch to verify
     * @param supportsEpochBump the producer uses transaction version 2 (Produce v12+)
     * @throws LogException INVALID_PRODUCER_EPOCH for an epoch older than the producer's in this log
     */
    public synchronized VerificationGuard startTransactionVerification(long producerId, short epoch, int sequence,
                                                                       boolean supportsEpochBump) {
        return transactions.startVerification(producerId, epoch, sequence, supportsEpochBump, clock.millis());
    }

    /**
     * Appends a transaction marker's control batch the broker wrote itself ({@code EndTransactionMarker}) for
     * {@code producerId} as this log's leader: checked against the producer's state under the lock of the write (so a
     * batch of the epoch the marker fences cannot slip in between); offsets, the leader epoch and the append time
     * stamped as for a producer's batch, but none of a producer's checks, which refuse control batches. Page cache
     * only, as {@link #appendUnflushed(ByteBuf, int)}.
     *
     * @param transactionVersion the marker's, as its coordinator sent it (WriteTxnMarkers v2's TransactionVersion;
     *     0 for an older request): from 2 its epoch must be above the producer's (KIP-1228)
     * @throws LogException INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED if the marker is refused, or the
     *     log's error
     */
    public AppendResult appendMarkerUnflushed(ByteBuf controlBatch, long producerId, short producerEpoch,
                                              int coordinatorEpoch, short transactionVersion, int leaderEpoch) {
        try (CheckedAppend checked = LogValidator.validateForAppend(this, controlBatch, config, false,
                clock.millis())) {
            synchronized (this) {
                Errors refused = transactions.checkMarker(producerId, producerEpoch, coordinatorEpoch,
                        transactionVersion);
                if (refused != Errors.NONE) {
                    throw new LogException(refused, "marker of producer " + producerId + " at epoch " + producerEpoch
                            + " (coordinator epoch " + coordinatorEpoch + ") refused in " + topicPartition);
                }
                return write(checked, leaderEpoch, true);
            }
        }
    }

    /**
     * Appends batches a follower fetched from its leader as they are: the leader's offsets, leader epochs and
     * timestamps kept, so every replica's log is the same bytes. The first batch must start at this log's end.
     * On the follower's fetcher thread, which may wait on the disk: a new epoch is checkpointed at once.
     */
    public AppendResult appendAsFollower(ByteBuf records) {
        AppendResult appended;
        try (CheckedAppend checked = LogValidator.validateForAppend(this, records, config, false, clock.millis())) {
            synchronized (this) {
                appended = write(checked, -1, false);
            }
        }
        writeLeaderEpochCheckpoint();
        return appended;
    }

    /** Writes checked batches through {@link LogWriter}, unless the log was deleted; under this monitor. */
    private AppendResult write(CheckedAppend incoming, int leaderEpoch, boolean asLeader) {
        if (deleted) { // a produce or a follower's fetch that resolved the log before its topic was deleted
            throw new LogException(Errors.UNKNOWN_TOPIC_OR_PARTITION, topicPartition + " was deleted with its topic");
        }
        return writer.write(incoming, leaderEpoch, asLeader, epochCache);
    }

    /**
     * The last stable offset (Kafka's LSO): below it every transaction has its marker, below the high watermark.
     * The first offset of the earliest transaction still open (or whose marker is not yet below the high watermark),
     * or the high watermark if that comes first. What read_committed consumers read up to. Without a lock.
     */
    public long lastStableOffset() {
        return transactions.lastStableOffset(highWatermark());
    }

    /**
     * The aborted transactions that overlap {@code [fetchOffset, upperBoundOffset)}, from the {@code .txnindex} of
     * the segment holding {@code fetchOffset} on (Kafka's collectAbortedTransactions), for a read_committed fetch:
     * the consumer drops those producers' batches from their first offset up to the abort marker. Without a lock.
     */
    public List<AbortedTxn> abortedTransactions(long fetchOffset, long upperBoundOffset) {
        return transactions.abortedTransactions(fetchOffset, upperBoundOffset);
    }

    /** Each producer with a transaction open in this log, and the offset where it starts. */
    public Map<Long, Long> ongoingTransactions() {
        return transactions.ongoing();
    }

    /**
     * Whether {@code producerId} has a transaction open in this log at {@code epoch} (Kafka's hasOngoingTransaction):
     * then its leader need not ask the coordinator to add the partition before appending more of it.
     */
    public synchronized boolean hasOngoingTransaction(long producerId, short epoch) {
        return transactions.hasOngoingTransaction(producerId, epoch);
    }

    /** Every producer this log holds batches of, as it stands now (what a snapshot taken now would hold). */
    public synchronized List<ProducerSnapshot.Entry> producers() {
        return transactions.producers();
    }

    /**
     * Drops the producers whose last batch or marker is stamped {@code expirationMs}
     * ({@code producer.id.expiration.ms}) or more before {@code now}, unless they have a transaction open, as Kafka's
     * removeExpiredProducers: the log's producer state stays bounded however many producers came and went. In memory:
     * the next snapshot (a roll, the close) leaves them out. Verifications started as long ago and never followed by
     * an append go too. Returns how many producers went.
     */
    public synchronized int removeExpiredProducers(long now, long expirationMs) {
        return transactions.removeExpiredProducers(now, expirationMs);
    }

    /** Where opening (or the last truncation) started replaying batches: a snapshot's offset, else the log's start. */
    synchronized long producerStateReplayedFrom() {
        return transactions.replayedFrom();
    }

    /** Starts a new active segment at {@code baseOffset}; under this object's monitor (appends, retention). */
    void roll(long baseOffset, long now) {
        writer.roll(baseOffset, now, config);
    }

    /**
     * Reads from the batch holding {@code fetchOffset} up to {@code maxBytes} (a whole first batch however
     * large when {@code minOneBatch}), never including a batch that reaches {@code maxOffset}, the
     * exclusive upper bound such as the high watermark. Like Kafka, one read returns data from one
     * segment only; the next fetch continues in the next. A non-empty result holds the segment's file open,
     * even through its deletion, until it is consumed ({@link LogReadResult}).
     *
     * @throws LogException OFFSET_OUT_OF_RANGE if {@code fetchOffset} is before the log start or past the end
     */
    public LogReadResult read(long fetchOffset, int maxBytes, boolean minOneBatch, long maxOffset) {
        return reader.read(fetchOffset, maxBytes, minOneBatch, maxOffset);
    }

    /**
     * The first record (at or after the log start) with a timestamp of at least {@code timestamp}, in the first
     * segment whose largest timestamp reaches it, as Kafka searches: what ListOffsets answers for a timestamp. Empty
     * when every record is older, or that segment has none at or after the log start.
     */
    public Optional<TimestampAndOffset> offsetForTimestamp(long timestamp) {
        return Optional.ofNullable(reader.offsetForTimestamp(timestamp));
    }

    /**
     * The largest timestamp in the log and the offset of the first record that carries it (ListOffsets'
     * MAX_TIMESTAMP), as Kafka answers since KAFKA-16310: the earliest segment and batch holding it, then the
     * first record of that batch with that timestamp (its base offset under log append time). Offset -1 if no
     * record matches the batch's max timestamp, as Kafka gives it. When no record has a timestamp, the first record
     * of the first segment, with timestamp -1, as Kafka answers; empty if that segment has no batch. Under
     * the writer's lock, since a segment's max timestamp and its batches change together.
     */
    public synchronized Optional<TimestampAndOffset> maxTimestampAndOffset() {
        return Optional.ofNullable(reader.maxTimestampAndOffset());
    }

    /** True once {@code flush.messages} records have been appended since the last flush. */
    public synchronized boolean flushDue() {
        return flushState.flushDue(config);
    }

    /**
     * Fsyncs everything appended before the call and moves the recovery point to where the log ended then.
     * Appends go on meanwhile (see the class comment); a segment that retention, truncation or deletion closes
     * under the fsync no longer holds data to keep.
     */
    public void flush() {
        LogFlushState.Start start;
        List<LogSegment> unsynced;
        synchronized (this) {
            if (deleted) {
                return; // a flush queued before its topic was deleted: nothing is left to make durable
            }
            start = flushState.start(offsets.logEndOffset());
            unsynced = segments.reachingPast(flushState.recoveryPoint());
        }
        // After the snapshot: every epoch started below the target is in the cache by now, so the recovery point
        // never passes an epoch the checkpoint lacks, whatever appends came in since the flush was asked for.
        writeLeaderEpochCheckpoint();
        segments.sync(unsynced);
        synchronized (this) {
            flushState.finished(start, clock.millis());
        }
    }

    /** Whom to tell of each roll (see {@link LogListener#segmentRolled}). */
    void onRoll(LogListener listener) {
        writer.onRoll(listener);
    }

    /**
     * For the broker's background work: flushes if a segment was rolled since the last flush, so that finished
     * segments reach the disk and the recovery point (where recovery after a crash starts) moves past them.
     * Kafka flushes a rolled segment asynchronously too; until then it is as durable as any unflushed data.
     */
    public boolean flushIfRolled() {
        synchronized (this) {
            if (!flushState.rolledSinceFlush()) {
                return false;
            }
        }
        flush();
        return true;
    }

    /** For the broker's scheduler: flushes if unflushed data has waited {@code flush.ms}. */
    public boolean flushIfDue() {
        synchronized (this) {
            if (!flushState.flushIntervalPassed(offsets.logEndOffset(), clock.millis(), config)) {
                return false;
            }
        }
        flush();
        return true;
    }

    /**
     * For the cleaner: the segments it may clean, oldest first, with their sizes now. Those wholly below the
     * active segment, the high watermark (a follower's uncommitted tail may still be truncated, as in Kafka) and
     * the recovery point (so the bytes a copy replaces were fsynced, and a crash cannot bring back unsynced ones).
     */
    synchronized List<CleanableSegment> cleanableSegments() {
        // Below the last stable offset too, as Kafka's firstUncleanableOffset: an open transaction's records are
        // not to be compacted before its marker says whether they count.
        return segments.cleanableBelow(Math.min(lastStableOffset(), flushState.recoveryPoint()),
                flushState.truncations());
    }

    /** Truncations so far (restarts included): the cleaner's first dirty offset is stale after one. */
    synchronized long truncationCount() {
        return flushState.truncations();
    }

    /** A segment as the cleaner found it, so that it can tell whether the log changed it while it was cleaning. */
    record CleanableSegment(LogSegment segment, int size, long truncations) {
    }

    /**
     * Puts the cleaner's copy of a segment (written to {@code .cleaned} files at the same base offset, flushed and
     * closed) in the segment's place ({@link LogSegments#replaceWithCleanedCopy}), unless the log changed it
     * meanwhile (a truncation, retention, deletion): then the copy's files are deleted and false returned.
     */
    synchronized boolean replaceSegment(CleanableSegment cleaned) throws IOException {
        LogSegment old = cleaned.segment();
        if (deleted || segments.get(old.baseOffset()) != old || old == segments.active()
                || old.size() != cleaned.size() || flushState.truncations() != cleaned.truncations()) {
            discardCleanedCopy(old.baseOffset());
            return false;
        }
        segments.replaceWithCleanedCopy(old, config, clock.millis());
        return true;
    }

    /**
     * A new, empty segment at {@code baseOffset} for the cleaner's copy ({@code .cleaned} files), made in the log's
     * directory under the log's lock; null if the log was deleted. A deletion renames the directory under this lock,
     * so the copy is made in the log's own directory and moves with it: a directory name read before the lock could
     * be that of a new log of the same topic, created after a deletion, which would keep the copy's files.
     */
    synchronized LogSegment createCleanedCopy(long baseOffset, long nowMs) throws IOException {
        return deleted ? null : LogSegment.create(segments.dir(), baseOffset, config, nowMs, LogCleaner.CLEANED_SUFFIX);
    }

    /** Deletes a cleaned copy that will not be swapped in, and the log's directory if the log was deleted meanwhile. */
    synchronized void discardCleanedCopy(long baseOffset) throws IOException {
        segments.deleteCleanedCopy(baseOffset);
        if (deleted) {
            segments.deleteDirectoryIfEmpty(); // delete() may have found the copy there and left the directory
        }
    }

    /**
     * Deletes whole segments from the start of the log as {@link LogRetention} rules: below the log start offset,
     * older than {@code retention.ms}, over {@code retention.bytes}, none holding an offset at or past the high
     * watermark. The log start offset moves to the first remaining segment.
     *
     * <p>The leader epoch cache drops the epochs below the new start in memory only, as Kafka's
     * truncateFromStartAsyncFlush leaves the file for later: the next flush or epoch change writes it, and a restart
     * cuts the cache at the checkpointed log start anyway. A follower meets this on its fetch loop whenever its
     * leader's log start moves, where an fsync per move would stall replication.
     *
     * @return the number of segments deleted
     */
    public synchronized int deleteOldSegments() {
        try {
            return LogRetention.deleteOldSegments(this, segments, config, clock.millis());
        } catch (IOException e) {
            throw storageError("cannot apply retention", e);
        }
    }

    /**
     * DeleteRecords: makes {@code offset} the log start offset (if it is later) and deletes the segments
     * wholly below it. The epoch cache is cut in memory only, as for {@link #deleteOldSegments()}.
     *
     * @return the log start offset afterwards
     */
    public synchronized long deleteRecordsBefore(long offset) {
        if (offset > offsets.logEndOffset() || offset < 0) {
            throw new LogException(Errors.OFFSET_OUT_OF_RANGE, "cannot delete records before " + offset + " in "
                    + topicPartition + ", whose log ends at " + offsets.logEndOffset());
        }
        if (offset > offsets.logStartOffset()) {
            log.info("Log start offset of {} advanced to {} by DeleteRecords", topicPartition, offset);
        }
        advanceLogStartOffset(offset);
        try {
            LogRetention.deleteBelowLogStart(this, segments, clock.millis());
        } catch (IOException e) {
            throw storageError("cannot delete segments", e);
        }
        return offsets.logStartOffset();
    }

    /**
     * Moves the log start offset up to {@code offset} (never back) and cuts the epoch cache there, in memory; under
     * this object's monitor (DeleteRecords, retention).
     */
    void advanceLogStartOffset(long offset) {
        epochCache.truncateFromStart(offsets.advanceLogStartOffset(offset));
    }

    /**
     * Removes every batch that reaches {@code offset} or beyond (a follower matching its leader), and ends the log at
     * {@code offset}, as Kafka's truncateTo: the next append, or the follower's next fetch, starts there. The batch
     * holding {@code offset} goes entirely, and {@code offset} may lie in a gap, so the last batch left may end
     * before it. Truncating to the log start or before empties the log and restarts it at {@code offset}.
     */
    public void truncateTo(long offset) {
        truncateToUnderLock(offset);
        writeLeaderEpochCheckpoint();
    }

    private synchronized void truncateToUnderLock(long offset) {
        try {
            truncation.truncateTo(offset, epochCache, config, clock.millis());
        } catch (IOException e) {
            throw storageError("cannot truncate to " + offset, e);
        }
    }

    /**
     * Empties the log and restarts it at {@code offset}: a follower whose log ends before its leader's log start
     * (the leader deleted what it lacks) follows from there, as Kafka's truncateFullyAndStartAt.
     */
    public void restartAt(long offset) {
        synchronized (this) {
            try {
                truncation.restartAt(offset, epochCache, config, clock.millis());
            } catch (IOException e) {
                throw storageError("cannot restart at " + offset, e);
            }
        }
        writeLeaderEpochCheckpoint();
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    /** Kafka's {@code partition.metadata} of this log: written by the topic registry, which knows the topic id. */
    public PartitionMetadataFile partitionMetadata() {
        return partitionMetadata;
    }

    /** The partition directory; once the log is deleted, its new name until it goes ({@link #delete}). */
    public Path dir() {
        return segments.dir();
    }

    public long logStartOffset() {
        return offsets.logStartOffset();
    }

    /** The offset the next record will get. */
    public long logEndOffset() {
        return offsets.logEndOffset();
    }

    /**
     * Where the log's last batch ends (the active segment's next offset): the log end, unless a truncation ended the
     * log past it, in a gap ({@link #truncateTo}). A fetch from an offset between the two finds no records though it
     * is below the log end, so a check of whether a parked fetch has data to read takes offsets for data only below
     * this one.
     */
    public long lastBatchEndOffset() {
        return segments.active().nextOffset();
    }

    /**
     * The offset below which records are replicated and so visible to consumers and acknowledged to acks=all
     * producers. With one replica that is the log end offset; with more, what replication last set, never past
     * this log's end.
     */
    public long highWatermark() {
        return offsets.highWatermark();
    }

    /** Sets the high watermark replication keeps: a follower's is its leader's; a new leader's starts at 0. */
    public void setReplicatedHighWatermark(long offset) {
        offsets.setReplicatedHighWatermark(offset);
    }

    /**
     * Moves a leader's high watermark forward to {@code offset} (the ISR's least log end); true if it moved.
     * Followers' fetches race to call it: the lock keeps the high watermark from ever moving back.
     */
    public synchronized boolean advanceReplicatedHighWatermark(long offset) {
        if (!offsets.advanceHighWatermark(offset)) {
            return false;
        }
        transactions.onHighWatermark(highWatermark());
        return true;
    }

    /** The offset up to which the log is known to be on disk. */
    public long recoveryPoint() {
        return flushState.recoveryPoint();
    }

    public int segmentCount() {
        return segments.count();
    }

    /**
     * The first segment's base offset, read under the log's monitor: {@link #restartAt} empties the segments before
     * it puts the new one, which a read without the monitor could find empty.
     */
    public synchronized long firstSegmentBaseOffset() {
        return segments.firstBaseOffset();
    }

    /** The base offsets of the segments, oldest first. */
    public Iterator<Long> segmentBaseOffsets() {
        return segments.baseOffsets();
    }

    /** Bytes in all segments. */
    public long size() {
        return segments.size();
    }

    public LogConfig config() {
        return config;
    }

    public void updateConfig(LogConfig config) {
        this.config = config;
    }

    /** Flushes and closes every segment; the log is unusable afterwards. */
    @Override
    public synchronized void close() throws IOException {
        flush();
        // A clean start then replays nothing. A log whose newest snapshot is already at its end (one idle since it
        // opened or rolled: most of a broker's partitions) has it on disk as it stands: not written again, unless
        // producers expired since, which the restart must not bring back.
        if (!deleted && transactions.snapshotStale(offsets.logEndOffset())) {
            transactions.takeSnapshot(offsets.logEndOffset(), true);
        }
        segments.closeAll();
    }

    /**
     * Closes the log and deletes its directory: renamed now, deleted {@code delayMs} later off this lock
     * ({@link LogSegments#renameDirectoryForDeletion}), as Kafka's asynchronous deletion of a partition.
     */
    synchronized void delete(long delayMs) throws IOException {
        deleted = true;
        flushState.deleted();
        segments.renameDirectoryForDeletion(delayMs);
    }

    /** The segments before the active one, as they are now: what a move copies before it takes the lock. */
    synchronized List<LogSegment> closedSegments() {
        List<LogSegment> closed = new ArrayList<>(segments.all());
        closed.remove(closed.size() - 1);
        return closed;
    }

    /** The segment appends go to now. */
    synchronized LogSegment activeSegment() {
        return segments.active();
    }

    /** Whether {@code segment} is still one of this log's (not dropped, nor replaced by a cleaned copy). */
    boolean hasSegment(LogSegment segment) {
        return segments.get(segment.baseOffset()) == segment;
    }

    /**
     * Ends a move to another directory ({@link FutureLog}): copies under this lock what the future log lacks, swaps
     * the directories and goes on in the new one; the old directory is deleted {@code deleteDelayMs} later. False,
     * with nothing changed, if the move was cancelled or the log deleted meanwhile. Appends wait meanwhile; reads
     * do not (a read of a segment swapped under it retries in the new one).
     */
    synchronized boolean completeMove(FutureLog future, long deleteDelayMs) throws IOException {
        if (deleted || future.isCancelled()) {
            return false;
        }
        future.copyRemainingUnderLock(segments, flushState.truncations());
        Path finalDir = future.targetLogDir().resolve(topicPartition.dirName());
        epochCache.moveDuring(future.dir(), finalDir, () -> partitionMetadata.moveDuring(future.dir(), finalDir, () -> {
            DurableFiles.fsyncDirectory(future.dir()); // its files were fsynced as they were written
            segments.moveTo(future.dir(), finalDir, config, clock.millis(), deleteDelayMs);
        }));
        transactions.movedTo(finalDir);
        return true;
    }

    /** Whether this log was deleted with its topic (a request that still holds it must not read or write it). */
    public boolean isDeleted() {
        return deleted;
    }

    private LogException storageError(String message, IOException cause) {
        return LogException.storageError(topicPartition, message, cause);
    }
}
