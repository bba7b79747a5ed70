package io.minibroker.broker.log;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Truncation: a follower cutting its log back to match its leader's (Kafka's truncateTo), or emptying it to follow
 * from its leader's log start (truncateFullyAndStartAt). Everything else the log keeps about what it holds follows
 * the cut: the offsets, the recovery point (and a flush under way is told not to move it over what was cut), the
 * leader epochs, and the producers and open transactions, replayed from the newest producer snapshot the cut left.
 * Apart from appends because it is the one change that takes records back, so it is where each part's "undo" meets.
 *
 * <p>Threading: called with the log's monitor held; the caller writes the leader epoch checkpoint afterwards,
 * outside it.
 */
final class LogTruncation {
    private static final Logger log = LoggerFactory.getLogger(LogTruncation.class);

    private final TopicPartition topicPartition;
    private final LogSegments segments;
    private final LogOffsets offsets;
    private final LogFlushState flushState;
    private final LogTransactions transactions;

    LogTruncation(TopicPartition topicPartition, LogSegments segments, LogOffsets offsets, LogFlushState flushState,
                  LogTransactions transactions) {
        this.topicPartition = topicPartition;
        this.segments = segments;
        this.offsets = offsets;
        this.flushState = flushState;
        this.transactions = transactions;
    }

    /** See {@link PartitionLog#truncateTo}. */
    void truncateTo(long offset, LeaderEpochCache epochCache, LogConfig config, long now) throws IOException {
        if (offset >= offsets.logEndOffset()) {
            // Nothing to cut, but an epoch this replica assigned at its log end as leader goes, if it appended
            // nothing in it before another leader was elected: the new leader's take over there (Kafka's truncateTo).
            epochCache.truncateFromEnd(offsets.logEndOffset());
            return;
        }
        flushState.truncating();
        if (offset <= offsets.logStartOffset() || offset <= segments.firstBaseOffset()) {
            truncateFullyAndStartAt(offset, epochCache, config, now);
            return;
        }
        int removed = segments.truncateTo(offset, config.fileDeleteDelayMs());
        // The log ends at the offset asked for, as Kafka's (LocalLog.truncateTo), though its last batch may end
        // before: a follower cut into a gap (offsets its leader's cleaner removed) fetches on from there.
        epochCache.truncateFromEnd(offset);
        offsets.truncatedTo(offset);
        flushState.cutTo(offset);
        transactions.replay(offset, offset, now); // transactions the cut reopens, or removes
        log.info("Truncated {} to offset {} ({} bytes cut from the active segment, whose last batch ends at {})",
                topicPartition, offset, removed, segments.active().nextOffset());
    }

    /** See {@link PartitionLog#restartAt}. */
    void restartAt(long offset, LeaderEpochCache epochCache, LogConfig config, long now) throws IOException {
        flushState.truncating();
        truncateFullyAndStartAt(offset, epochCache, config, now);
    }

    private void truncateFullyAndStartAt(long offset, LeaderEpochCache epochCache, LogConfig config, long now)
            throws IOException {
        segments.restartAt(offset, config, now);
        offsets.restartAt(offset);
        flushState.restartAt(offset);
        epochCache.clear();
        transactions.clear(offset);
        log.info("Truncated {} fully; it restarts at offset {}", topicPartition, offset);
    }
}
