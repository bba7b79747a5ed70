package io.minibroker.broker.log;

import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write side of a log, once its batches are checked ({@link LogValidator}) and its lock taken: stamps them (a
 * leader's offsets, leader epoch and append time; a follower keeps its leader's), rolls a new active segment when one
 * is due, writes them to it, and tells the log's other parts what each batch begins: its producer's state and
 * transaction ({@link LogTransactions}), a new leader epoch ({@link LeaderEpochCache}), records to flush
 * ({@link LogFlushState}). Kafka spreads the same steps over UnifiedLog.append and LocalLog's append and roll; kept
 * here, out of {@link PartitionLog}, so that the log's facade holds its lock and offsets, and this the order in which
 * one write touches every part.
 *
 * <p>Threading: every method runs with the log's monitor held, on whichever thread appends (an event loop, the
 * fetcher, the maintenance thread for a roll): nothing here waits on the disk but the write itself.
 */
final class LogWriter {
    private static final Logger log = LoggerFactory.getLogger(LogWriter.class);

    private final PartitionLog partitionLog;
    private final LogSegments segments;
    private final LogOffsets offsets;
    private final LogTransactions transactions;
    private final LogFlushState flushState;
    /** Told of each roll; the log manager's, which passes it on to its listeners. */
    private volatile LogListener rollListener = new LogListener() {
    };

    LogWriter(PartitionLog partitionLog, LogSegments segments, LogOffsets offsets, LogTransactions transactions,
              LogFlushState flushState) {
        this.partitionLog = partitionLog;
        this.segments = segments;
        this.offsets = offsets;
        this.transactions = transactions;
        this.flushState = flushState;
    }

    /** Whom to tell of each roll (see {@link LogListener#segmentRolled}). */
    void onRoll(LogListener listener) {
        this.rollListener = listener;
    }

    /** Writes checked batches: offsets, epoch and append time stamped by a leader, the leader's kept by a follower. */
    AppendResult write(CheckedAppend incoming, int leaderEpoch, boolean asLeader, LeaderEpochCache epochCache) {
        LogConfig config = incoming.config;
        long now = incoming.nowMs;
        TopicPartition topicPartition = partitionLog.topicPartition();
        ByteBuf records = incoming.batches;
        int totalBytes = incoming.totalBytes;
        long incomingMaxTimestamp = incoming.maxTimestamp;
        long logAppendTime = config.logAppendTime() && asLeader ? now : -1;
        if (logAppendTime >= 0) {
            incomingMaxTimestamp = now;
        }
        long firstOffset = offsets.logEndOffset();
        long lastOffset = firstOffset + incoming.offsetCount - 1;
        if (!asLeader) {
            firstOffset = LogValidator.fetchedBaseOffset(incoming, offsets.logEndOffset(), topicPartition);
            lastOffset = incoming.lastOffset;
        }
        if (segments.active().shouldRoll(totalBytes, lastOffset, incomingMaxTimestamp, now, config)) {
            roll(firstOffset, now, partitionLog.config()); // the segment takes the log's config as it is now
        }
        LogSegment active = segments.active();
        long maxTimestamp = -1;
        long offsetOfMaxTimestamp = -1;
        long nextOffset = firstOffset;
        RecordBatches batches = RecordBatches.of(records);
        try {
            while (batches.hasNext()) {
                RecordBatch batch = batches.next();
                if (asLeader) {
                    batch.setBaseOffset(nextOffset);
                    batch.setPartitionLeaderEpoch(leaderEpoch);
                    if (logAppendTime >= 0) {
                        batch.setLogAppendTime(logAppendTime);
                    }
                }
                active.append(batch);
                if (batch.producerId() >= 0) {
                    try {
                        transactions.written(batch, active, offsets.highWatermark());
                    } catch (IOException e) {
                        throw LogException.storageError(topicPartition,
                                "cannot index the aborted transaction ending at " + batch.baseOffset(), e);
                    }
                }
                // A new epoch's first batch, or the first of one its leader began in memory: a checkpoint to write.
                epochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
                nextOffset = batch.lastOffset() + 1;
                if (batch.maxTimestamp() > maxTimestamp) {
                    maxTimestamp = batch.maxTimestamp();
                    offsetOfMaxTimestamp = batch.lastOffset();
                }
            }
        } finally {
            // If a write failed part way, the batches before it are in the segment: offsets go on from them.
            offsets.appendedTo(active.nextOffset());
        }
        flushState.appended(incoming.recordCount);
        return new AppendResult(firstOffset, lastOffset, logAppendTime, maxTimestamp, offsetOfMaxTimestamp,
                flushState.flushDue(config));
    }

    /** Starts a new active segment at {@code baseOffset}; under the log's monitor (appends, retention). */
    void roll(long baseOffset, long now, LogConfig config) {
        LogSegment previous = segments.active();
        try {
            // The producers as of the finished segments, so that opening the log replays only what follows (Kafka
            // snapshots at each roll too). Not fsynced here, on an appender's thread: one a crash tore fails its
            // CRC, and the replay starts from an older one or from the log start.
            transactions.takeSnapshot(offsets.logEndOffset(), false);
            // Its fsync is left to the background (flushIfRolled): rolls happen on event loops.
            previous.writeIndexesOut();
            flushState.rolled();
            segments.roll(baseOffset, config, now);
            rollListener.segmentRolled(partitionLog);
        } catch (IOException e) {
            throw LogException.storageError(partitionLog.topicPartition(),
                    "cannot roll a new segment at offset " + baseOffset, e);
        }
        log.info("Rolled {} to a new segment at offset {} after {} ({} bytes)", partitionLog.topicPartition(),
                baseOffset, previous.logPath().getFileName(), previous.size());
    }
}
