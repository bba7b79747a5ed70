package io.minibroker.broker.log;

/**
 * A log's three offsets and the rules between them, which appends, retention, DeleteRecords, truncation and
 * replication all move: the log start offset (the first readable one; it only moves up, except when a truncation
 * empties the log), the log end offset (the next to assign), and the high watermark (what replication has
 * committed: the log end while this log is the only replica, else what replication set, never past the log end).
 * Kept in one place so that every part of the log that moves one keeps the others consistent with it.
 *
 * <p>Threading: changed under the {@link PartitionLog}'s monitor, except {@link #setReplicatedHighWatermark}; read
 * without a lock (fetches, ListOffsets, the produce purgatory), hence volatile.
 */
final class LogOffsets {

    /** {@link #replicatedHighWatermark} while this log is the only replica: the high watermark is the log end. */
    private static final long UNREPLICATED = -1;

    private volatile long logStartOffset;
    private volatile long logEndOffset;
    /** The high watermark replication maintains, or {@link #UNREPLICATED}. */
    private volatile long replicatedHighWatermark = UNREPLICATED;

    /** A log opened with these segments: the start is kept within them, and never past the end. */
    LogOffsets(long checkpointedLogStart, long firstBaseOffset, long logEndOffset) {
        this.logEndOffset = logEndOffset;
        this.logStartOffset = Math.min(Math.max(checkpointedLogStart, firstBaseOffset), logEndOffset);
    }

    long logStartOffset() {
        return logStartOffset;
    }

    long logEndOffset() {
        return logEndOffset;
    }

    /**
     * The log end moved to where the active segment now ends (an append, even one that failed part way); never back,
     * as a log that a truncation ended past its last batch (see {@link #truncatedTo}) still ends there if an append
     * failed before its first batch.
     */
    void appendedTo(long logEndOffset) {
        this.logEndOffset = Math.max(this.logEndOffset, logEndOffset);
    }

    /** Moves the log start up to {@code offset}, never back (retention, DeleteRecords); returns the start now. */
    long advanceLogStartOffset(long offset) {
        logStartOffset = Math.max(logStartOffset, offset);
        return logStartOffset;
    }

    /**
     * A truncation ended the log at {@code logEndOffset}, the offset it was asked for, as Kafka's does: the log's last
     * batch may end before it (the truncation cut the whole batch holding it, or it lies in a gap of the log).
     */
    void truncatedTo(long logEndOffset) {
        this.logEndOffset = logEndOffset;
        logStartOffset = Math.min(logStartOffset, logEndOffset);
    }

    /** The log was emptied and restarts at {@code offset}. */
    void restartAt(long offset) {
        logStartOffset = offset;
        logEndOffset = offset;
    }

    /** See {@link PartitionLog#highWatermark()}. */
    long highWatermark() {
        long replicated = replicatedHighWatermark;
        return replicated == UNREPLICATED ? logEndOffset : Math.min(replicated, logEndOffset);
    }

    /** See {@link PartitionLog#setReplicatedHighWatermark}. */
    void setReplicatedHighWatermark(long offset) {
        replicatedHighWatermark = Math.max(offset, 0);
    }

    /** Moves the high watermark forward to {@code offset}; true if it moved. Under the log's monitor. */
    boolean advanceHighWatermark(long offset) {
        if (offset <= highWatermark()) {
            return false;
        }
        replicatedHighWatermark = offset;
        return true;
    }
}
