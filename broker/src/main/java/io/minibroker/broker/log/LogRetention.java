package io.minibroker.broker.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention: which whole segments go from the start of a log, and deleting them (Kafka's deleteOldSegments and its
 * three breaches, in its order). Segments wholly below the log start offset go first, then the oldest ones while the
 * log is more than {@code retention.bytes} (the active segment too), then those whose largest timestamp is more than
 * {@code retention.ms} old. Each rule
 * takes segments from the start for as long as they breach it, and never one holding an offset at or past the high
 * watermark (a segment goes only once the segment after it starts at or below the high watermark, the active one
 * once the log end is there), as Kafka's deletableSegments: the log start offset must never pass the high watermark,
 * or a follower could lose records that were never replicated, and a consumer's committed position would sit past the
 * log's start. When every segment goes the active one is rolled first, so that an empty one is left. Each deletion
 * moves the log start offset to the first remaining segment ({@link PartitionLog#advanceLogStartOffset}).
 *
 * <p>Threading: called with its log's monitor held (one writer at a time), from the broker's maintenance thread or
 * a DeleteRecords request; readers that lose a segment to it see the segment closed and the log start moved. Its
 * files are only renamed {@code .deleted} under the monitor, and deleted {@code file.delete.delay.ms} later
 * ({@link LogSegments#deleteLater}).
 */
final class LogRetention {
    private static final Logger log = LoggerFactory.getLogger(LogRetention.class);

    private LogRetention() {
    }

    /** One rule: whether {@code segment} breaches it, given the segment after it ({@code null} for the active one). */
    @FunctionalInterface
    private interface Breach {
        boolean breached(LogSegment segment, LogSegment next) throws IOException;
    }

    /** Applies the three rules to {@code partitionLog}'s segments; returns the number of segments deleted. */
    static int deleteOldSegments(PartitionLog partitionLog, LogSegments segments, LogConfig config, long now)
            throws IOException {
        int deleted = deleteBelowLogStart(partitionLog, segments, now);
        if (config.retentionBytes() >= 0) {
            // The active segment counts too, as in Kafka: retention.bytes=0 empties the log.
            long[] excess = {segments.size() - config.retentionBytes()};
            deleted += deleteBreaching(partitionLog, segments, now, "over retention.bytes " + config.retentionBytes(),
                    (segment, next) -> {
                        if (excess[0] < segment.size()) {
                            return false;
                        }
                        excess[0] -= segment.size();
                        return true;
                    });
        }
        long retentionMs = config.retentionMs();
        if (retentionMs >= 0) {
            deleted += deleteBreaching(partitionLog, segments, now, "older than retention.ms " + retentionMs,
                    (segment, next) -> now - segment.largestTimestamp() > retentionMs);
        }
        return deleted;
    }

    /** Deletes the segments wholly below the log start offset; returns how many. */
    static int deleteBelowLogStart(PartitionLog partitionLog, LogSegments segments, long now) throws IOException {
        long logStart = partitionLog.logStartOffset();
        return deleteBreaching(partitionLog, segments, now, "below the log start offset " + logStart,
                (segment, next) -> next != null && next.baseOffset() <= logStart);
    }

    /**
     * Deletes segments from the start while they breach {@code breach} and lie wholly below the high watermark; the
     * active segment too if it is not empty, after a roll. Returns how many went.
     */
    private static int deleteBreaching(PartitionLog partitionLog, LogSegments segments, long now, String reason,
                                       Breach breach) throws IOException {
        long highWatermark = partitionLog.highWatermark();
        List<LogSegment> deletable = new ArrayList<>();
        Iterator<LogSegment> all = segments.all().iterator();
        LogSegment segment = all.next();
        while (segment != null) {
            LogSegment next = all.hasNext() ? all.next() : null;
            long upperBound = next != null ? next.baseOffset() : partitionLog.logEndOffset();
            boolean emptyActive = next == null && segment.size() == 0;
            if (highWatermark < upperBound || emptyActive || !breach.breached(segment, next)) {
                break;
            }
            deletable.add(segment);
            segment = next;
        }
        if (deletable.isEmpty()) {
            return 0;
        }
        if (deletable.size() == segments.count()) {
            partitionLog.roll(partitionLog.logEndOffset(), now); // a log keeps one segment, as Kafka's
        }
        // The log start moves first, so that no read finds it in a segment already gone (Kafka's order too).
        partitionLog.advanceLogStartOffset(segments.higherEntry(deletable.get(deletable.size() - 1).baseOffset())
                .getKey());
        for (LogSegment gone : deletable) {
            segments.removeFirst();
            log.info("Deleting segment {} of {} ({} bytes, offsets {}..{}): {}", gone.logPath().getFileName(),
                    partitionLog.topicPartition(), gone.size(), gone.baseOffset(), gone.nextOffset() - 1, reason);
        }
        segments.deleteLater(deletable, partitionLog.config().fileDeleteDelayMs());
        return deletable.size();
    }
}
