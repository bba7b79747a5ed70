package io.minibroker.broker.log;

/**
 * A log's flush bookkeeping: the recovery point (the offset up to which the log is known to be on disk, where
 * recovery after a crash starts), the records appended since the last flush ({@code flush.messages}), when it last
 * flushed ({@code flush.ms}), and the counts of rolls and truncations by which a flush, whose fsync runs without the
 * log's lock, tells what happened meanwhile.
 *
 * <p>Threading: guarded by its {@link PartitionLog}'s monitor; every method but {@link #recoveryPoint()} is called
 * holding it. The recovery point is volatile too, for readers without the lock (checkpoints, a produce waiting for
 * its fsync).
 */
final class LogFlushState {
    private volatile long recoveryPoint;
    private long unflushedMessages;
    private long lastFlushMs;
    /** Counts truncations, so a flush that raced one does not move the recovery point over data it never synced. */
    private long truncations;
    /** Segments rolled so far, so a flush can tell whether a roll came in while it was syncing. */
    private long rolls;
    /** {@link #rolls} as of the last flush: below it, {@link PartitionLog#flushIfRolled} has a segment to sync. */
    private long flushedRolls;

    /** What a flush noted under the lock before its fsync: where the log ended, and the counts then. */
    record Start(long target, long counted, long truncations, long rolls) {
    }

    LogFlushState(long recoveryPoint, long nowMs) {
        this.recoveryPoint = recoveryPoint;
        this.lastFlushMs = nowMs;
    }

    /** The offset up to which the log is known to be on disk. */
    long recoveryPoint() {
        return recoveryPoint;
    }

    void appended(long records) {
        unflushedMessages += records;
    }

    /** True once {@code flush.messages} records have been appended since the last flush. */
    boolean flushDue(LogConfig config) {
        return unflushedMessages >= config.flushIntervalMessages();
    }

    /** True when data up to {@code logEndOffset} is unflushed and the last flush was {@code flush.ms} ago. */
    boolean flushIntervalPassed(long logEndOffset, long nowMs, LogConfig config) {
        return recoveryPoint < logEndOffset && nowMs - lastFlushMs >= config.flushIntervalMs();
    }

    void rolled() {
        rolls++;
    }

    /** Whether a segment was rolled since the last flush, and so waits for one to be made durable. */
    boolean rolledSinceFlush() {
        return flushedRolls != rolls;
    }

    /** Truncations so far (restarts included). */
    long truncations() {
        return truncations;
    }

    /** A truncation or restart begins: a flush under way must not move the recovery point. */
    void truncating() {
        truncations++;
    }

    /** The log now ends at {@code logEndOffset}: the recovery point cannot be past it. */
    void cutTo(long logEndOffset) {
        recoveryPoint = Math.min(recoveryPoint, logEndOffset);
    }

    /** The log was emptied and restarts at {@code offset}. */
    void restartAt(long offset) {
        recoveryPoint = offset;
    }

    /** The log was deleted: no rolled segment is left to flush. */
    void deleted() {
        flushedRolls = rolls;
    }

    /** Notes, before a flush's fsync, what it is to cover: the log up to {@code logEndOffset}. */
    Start start(long logEndOffset) {
        return new Start(logEndOffset, unflushedMessages, truncations, rolls);
    }

    /**
     * A flush's fsync is done: the recovery point moves to where the log ended at its start, unless a truncation
     * came in meanwhile. The rolls before the sync are covered; one that came in while it ran waits for its own flush.
     */
    void finished(Start start, long nowMs) {
        if (truncations == start.truncations()) {
            recoveryPoint = Math.max(recoveryPoint, start.target());
        }
        unflushedMessages = Math.max(0, unflushedMessages - start.counted());
        lastFlushMs = nowMs;
        flushedRolls = Math.max(flushedRolls, start.rolls());
    }
}
