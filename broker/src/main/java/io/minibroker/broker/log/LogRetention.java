package io.minibroker.broker.log;

import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention: which whole segments go from the start of a log, and deleting them (Kafka's deleteOldSegments and its
 * three breaches). Inactive segments below the log start offset go first, then those whose largest timestamp is
 * more than {@code retention.ms} old (rolling the active segment first when it has expired too, as Kafka does),
 * then the oldest inactive ones while the log is more than {@code retention.bytes}. Each deletion moves the log
 * start offset to the first remaining segment ({@link PartitionLog#advanceLogStartOffset}).
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

    /** Applies the three rules to {@code partitionLog}'s segments; returns the number of segments deleted. */
    static int deleteOldSegments(PartitionLog partitionLog, LogSegments segments, LogConfig config, long now)
            throws IOException {
        int deleted = deleteBelowLogStart(partitionLog, segments);
        if (config.retentionMs() >= 0) {
            while (now - segments.first().largestTimestamp() > config.retentionMs()) {
                if (!segments.firstIsDeletable()) {
                    if (segments.active().size() == 0) {
                        break;
                    }
                    // Every record has expired: like Kafka, roll so the active segment can go as well.
                    partitionLog.roll(partitionLog.logEndOffset(), now);
                }
                deleteFirstSegment(partitionLog, segments, "older than retention.ms " + config.retentionMs());
                deleted++;
            }
        }
        if (config.retentionBytes() >= 0) {
            long excess = segments.size() - config.retentionBytes();
            while (segments.firstIsDeletable() && excess >= segments.first().size()) {
                excess -= segments.first().size();
                deleteFirstSegment(partitionLog, segments, "over retention.bytes " + config.retentionBytes());
                deleted++;
            }
        }
        return deleted;
    }

    /** Deletes the inactive segments wholly below the log start offset; returns how many. */
    static int deleteBelowLogStart(PartitionLog partitionLog, LogSegments segments) throws IOException {
        int deleted = 0;
        while (segments.firstIsDeletable() && segments.secondBaseOffset() <= partitionLog.logStartOffset()) {
            deleteFirstSegment(partitionLog, segments, "below the log start offset " + partitionLog.logStartOffset());
            deleted++;
        }
        return deleted;
    }

    private static void deleteFirstSegment(PartitionLog partitionLog, LogSegments segments, String reason)
            throws IOException {
        LogSegment segment = segments.removeFirst();
        partitionLog.advanceLogStartOffset(segments.firstBaseOffset());
        log.info("Deleting segment {} of {} ({} bytes, offsets {}..{}): {}", segment.logPath().getFileName(),
                partitionLog.topicPartition(), segment.size(), segment.baseOffset(), segment.nextOffset() - 1, reason);
        segments.deleteLater(List.of(segment), partitionLog.config().fileDeleteDelayMs());
    }
}
