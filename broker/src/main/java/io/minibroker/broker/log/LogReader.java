package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Map;

/**
 * A log's reads: fetches from an offset, checked against the log's range, and the searches by timestamp that
 * ListOffsets asks. Each finds its segment in the log's {@link LogSegments} and reads up to the sizes the writer
 * published after each write. A read or search whose segment was closed under it looks again: retention deleted it
 * (the offset is out of range now), or the cleaner put a copy in its place (read that).
 *
 * <p>Threading: no lock, on any thread (event loops, fetchers), while the log's writer appends, rolls, deletes or
 * swaps segments; only {@link #maxTimestampAndOffset} is called under the log's monitor.
 */
final class LogReader {
    /** A read or search retries when the cleaner replaced its segment under it; more than a few in a row cannot be. */
    private static final int MAX_READ_ATTEMPTS = 3;

    private final PartitionLog log;
    private final TopicPartition topicPartition;
    private final LogSegments segments;

    LogReader(PartitionLog log, LogSegments segments) {
        this.log = log;
        this.topicPartition = log.topicPartition();
        this.segments = segments;
    }

    /** {@link PartitionLog#read}. */
    LogReadResult read(long fetchOffset, int maxBytes, boolean minOneBatch, long maxOffset) {
        long endOffset = log.logEndOffset();
        checkInRange(fetchOffset, endOffset);
        if (fetchOffset >= Math.min(endOffset, maxOffset)) {
            return LogReadResult.EMPTY;
        }
        for (int attempt = 1; ; attempt++) {
            Map.Entry<Long, LogSegment> entry = segments.floorEntry(fetchOffset);
            try {
                while (entry != null) {
                    LogReadResult result = entry.getValue().read(fetchOffset, maxBytes, minOneBatch, maxOffset);
                    if (result != null) {
                        return result;
                    }
                    entry = segments.higherEntry(entry.getKey());
                }
            } catch (ClosedChannelException e) {
                // Retention deleted the segment under this read (the offset is gone now), or the cleaner put a
                // cleaned copy in its place (read that).
                checkInRange(fetchOffset, endOffset);
                if (attempt == MAX_READ_ATTEMPTS || segments.get(entry.getKey()) == entry.getValue()) {
                    throw LogException.storageError(topicPartition, "segment closed during a read at offset "
                            + fetchOffset, e);
                }
                continue;
            } catch (IOException e) {
                throw LogException.storageError(topicPartition, "cannot read offset " + fetchOffset, e);
            }
            checkInRange(fetchOffset, endOffset);
            return LogReadResult.EMPTY;
        }
    }

    private void checkInRange(long offset, long endOffset) {
        long startOffset = log.logStartOffset();
        if (offset < startOffset || offset > endOffset) {
            throw new LogException(Errors.OFFSET_OUT_OF_RANGE, "offset " + offset + " is outside " + topicPartition
                    + "'s range " + startOffset + ".." + endOffset);
        }
    }

    /**
     * The first record (at or after the log start) with a timestamp of at least {@code timestamp}, as Kafka's
     * searchOffsetInLocalLog finds it: in the first segment whose largest timestamp (its file's modification time
     * when no record has one) reaches {@code timestamp}; null when no segment reaches it, or when the first that
     * does reaches it by its modification time and has no such record. Segments wholly below the log start, which
     * retention is about to delete, are passed over, and so is one whose batches the cleaner emptied (their headers
     * keep their timestamps; Kafka's cleaner leaves no such segment). See {@link PartitionLog#offsetForTimestamp}.
     */
    TimestampAndOffset offsetForTimestamp(long timestamp) {
        long startOffset = log.logStartOffset();
        for (LogSegment segment : segments.all()) {
            if (segment.nextOffset() <= startOffset || largestTimestamp(segment) < timestamp) {
                continue;
            }
            TimestampAndOffset found = findOffsetByTimestamp(segment, timestamp, startOffset);
            if (found != null || segment.maxTimestamp() < 0) {
                return found;
            }
        }
        return null;
    }

    private long largestTimestamp(LogSegment segment) {
        try {
            return segment.largestTimestamp();
        } catch (IOException e) { // its file went with a deletion or a cleaner's swap: no record of it to find
            return Long.MIN_VALUE;
        }
    }

    /** A segment's search, taken up again in the cleaned copy that replaced the segment during it, if one did. */
    private TimestampAndOffset findOffsetByTimestamp(LogSegment segment, long timestamp, long startOffset) {
        for (int attempt = 1; ; attempt++) {
            try {
                return segment.findOffsetByTimestamp(timestamp, startOffset);
            } catch (ClosedChannelException e) {
                LogSegment replacement = segments.get(segment.baseOffset());
                if (attempt == MAX_READ_ATTEMPTS || replacement == null || replacement == segment) {
                    throw LogException.storageError(topicPartition, "segment closed during a search for timestamp "
                            + timestamp, e);
                }
                segment = replacement;
            } catch (IOException e) {
                throw LogException.storageError(topicPartition, "cannot search for timestamp " + timestamp, e);
            }
        }
    }

    /**
     * The largest timestamp and the first record carrying it, as {@link PartitionLog#maxTimestampAndOffset} answers;
     * null when the segment searched has no batch. The caller holds the log's monitor: a segment's max timestamp and its
     * batches change together.
     */
    TimestampAndOffset maxTimestampAndOffset() {
        // The first segment unless a later one has a larger timestamp: where no record has one, Kafka answers the
        // first segment's first record, with timestamp -1.
        LogSegment newest = null;
        for (LogSegment segment : segments.all()) {
            if (newest == null || segment.maxTimestamp() > newest.maxTimestamp()) {
                newest = segment;
            }
        }
        long timestamp = newest.maxTimestamp();
        try {
            // The first record at or after the segment's largest timestamp is the first one carrying it.
            TimestampAndOffset found = newest.findOffsetByTimestamp(timestamp, newest.baseOffset());
            return found != null || timestamp < 0 ? found : new TimestampAndOffset(timestamp, -1);
        } catch (IOException e) {
            throw LogException.storageError(topicPartition, "cannot search for the largest timestamp " + timestamp, e);
        }
    }
}
