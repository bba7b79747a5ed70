package io.minibroker.broker.log;

import io.minibroker.protocol.record.RecordBatch;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The per-topic settings of a partition log, under Kafka's names and with Kafka's defaults. The broker's
 * config loader builds one from {@code server.properties} and topic overrides; tests shrink the sizes to
 * exercise rolls and sparse indexes with little data.
 *
 * @param segmentBytes           {@code segment.bytes}: roll when the next append would not fit
 * @param segmentMs              {@code segment.ms}: roll when the incoming batches' max timestamp is this far past
 *                               the segment's first batch's
 * @param retentionMs            {@code retention.ms}: delete segments (the active one too, rolled first) whose
 *                               largest timestamp is older; -1 keeps them forever
 * @param retentionBytes         {@code retention.bytes}: delete the oldest segments (the active one too, rolled
 *                               first) while the log is larger; -1 for no limit
 * @param logAppendTime          {@code message.timestamp.type=LogAppendTime} when true, CreateTime when false
 * @param maxMessageBytes        {@code max.message.bytes}: the largest batch accepted
 * @param indexIntervalBytes     {@code index.interval.bytes}: log bytes appended between two offset index entries
 * @param segmentIndexBytes      {@code segment.index.bytes}: the most index bytes a segment may have before it rolls
 * @param flushIntervalMessages  {@code flush.messages}: records appended between two fsyncs
 * @param flushIntervalMs        {@code flush.ms}: the most time unflushed data may wait for the scheduler's flush
 * @param compressionType        {@code compression.type}: the codec the leader stores batches in, or the producer's
 * @param timestampBeforeMaxMs   {@code message.timestamp.before.max.ms}: how far in the past a CreateTime record may be
 * @param timestampAfterMaxMs    {@code message.timestamp.after.max.ms}: how far in the future a CreateTime record may be
 * @param compacted              {@code cleanup.policy} includes {@code compact}: every record needs a key
 * @param segmentJitterMs        {@code segment.jitter.ms}: each segment rolls up to this much (drawn at random
 *                               when it is made) before {@code segment.ms}, so that many partitions do not roll
 *                               at once
 * @param deleteRetentionMs      {@code delete.retention.ms}: how long the cleaner keeps a tombstone once it has
 *                               cleaned the segment holding it
 * @param minCompactionLagMs     {@code min.compaction.lag.ms}: a segment holding a record younger than this is not
 *                               cleaned yet
 * @param maxCompactionLagMs     {@code max.compaction.lag.ms}: a log whose oldest dirty record is older than this is
 *                               cleaned whatever its dirty ratio
 * @param minCleanableDirtyRatio {@code min.cleanable.dirty.ratio}: the share of the cleanable bytes not yet cleaned
 *                               at which the cleaner takes a compacted log up
 * @param fileDeleteDelayMs      {@code file.delete.delay.ms}: how long the files of a deleted segment, renamed
 *                               {@code .deleted} at once, wait before they are deleted
 */
public record LogConfig(
        int segmentBytes,
        long segmentMs,
        long retentionMs,
        long retentionBytes,
        boolean logAppendTime,
        int maxMessageBytes,
        int indexIntervalBytes,
        int segmentIndexBytes,
        long flushIntervalMessages,
        long flushIntervalMs,
        BrokerCompressionType compressionType,
        long timestampBeforeMaxMs,
        long timestampAfterMaxMs,
        boolean compacted,
        long segmentJitterMs,
        long deleteRetentionMs,
        long minCompactionLagMs,
        long maxCompactionLagMs,
        double minCleanableDirtyRatio,
        long fileDeleteDelayMs) {

    public static final int DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024;
    public static final long DEFAULT_SEGMENT_MS = 7L * 24 * 60 * 60 * 1000;
    public static final long DEFAULT_RETENTION_MS = 7L * 24 * 60 * 60 * 1000;
    public static final long DEFAULT_RETENTION_BYTES = -1;
    /** Kafka's default: 1 MiB plus the 12 bytes of log overhead. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024 + 12;
    public static final int DEFAULT_INDEX_INTERVAL_BYTES = 4096;
    public static final int DEFAULT_SEGMENT_INDEX_BYTES = 10 * 1024 * 1024;
    /** Kafka's lowest {@code segment.index.bytes}. */
    public static final int MIN_SEGMENT_INDEX_BYTES = 4;
    public static final long DEFAULT_TIMESTAMP_BEFORE_MAX_MS = Long.MAX_VALUE;
    /** Kafka 4's default: a record stamped more than an hour ahead of the broker's clock is refused. */
    public static final long DEFAULT_TIMESTAMP_AFTER_MAX_MS = 3_600_000L;
    public static final long DEFAULT_DELETE_RETENTION_MS = 86_400_000L;
    public static final double DEFAULT_MIN_CLEANABLE_DIRTY_RATIO = 0.5;
    public static final long DEFAULT_FILE_DELETE_DELAY_MS = 60_000L;

    public LogConfig {
        Objects.requireNonNull(compressionType, "compressionType");
        if (segmentBytes < RecordBatch.HEADER_BYTES) {
            throw new IllegalArgumentException("segment.bytes " + segmentBytes + " cannot hold a single batch");
        }
        // Kafka's lowest values: max.message.bytes 0 refuses every batch, flush.ms 0 flushes at every scheduler
        // tick, a segment.index.bytes below one entry makes the indexes full at once (a segment per append).
        if (segmentMs <= 0 || indexIntervalBytes < 0 || segmentIndexBytes < MIN_SEGMENT_INDEX_BYTES
                || maxMessageBytes < 0 || flushIntervalMessages <= 0 || flushIntervalMs < 0
                || timestampBeforeMaxMs < 0 || timestampAfterMaxMs < 0 || segmentJitterMs < 0 || deleteRetentionMs < 0
                || minCompactionLagMs < 0 || maxCompactionLagMs < 1 || fileDeleteDelayMs < 0
                || !(minCleanableDirtyRatio >= 0 && minCleanableDirtyRatio <= 1)) {
            throw new IllegalArgumentException("invalid log config " + "segment.ms=" + segmentMs
                    + " index.interval.bytes=" + indexIntervalBytes + " segment.index.bytes=" + segmentIndexBytes
                    + " max.message.bytes=" + maxMessageBytes + " flush.messages=" + flushIntervalMessages
                    + " flush.ms=" + flushIntervalMs + " message.timestamp.before.max.ms=" + timestampBeforeMaxMs
                    + " message.timestamp.after.max.ms=" + timestampAfterMaxMs + " delete.retention.ms="
                    + deleteRetentionMs + " min.compaction.lag.ms=" + minCompactionLagMs + " max.compaction.lag.ms="
                    + maxCompactionLagMs + " min.cleanable.dirty.ratio=" + minCleanableDirtyRatio
                    + " file.delete.delay.ms=" + fileDeleteDelayMs);
        }
    }

    public static LogConfig defaults() {
        return new Builder().build();
    }

    /** A builder holding this config's values, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public LogConfig withSegmentBytes(int bytes) {
        return toBuilder().segmentBytes(bytes).build();
    }

    public LogConfig withSegmentMs(long ms) {
        return toBuilder().segmentMs(ms).build();
    }

    public LogConfig withRetention(long ms, long bytes) {
        return toBuilder().retentionMs(ms).retentionBytes(bytes).build();
    }

    public LogConfig withLogAppendTime(boolean logAppendTime) {
        return toBuilder().logAppendTime(logAppendTime).build();
    }

    public LogConfig withIndexIntervalBytes(int bytes) {
        return toBuilder().indexIntervalBytes(bytes).build();
    }

    public LogConfig withFlushIntervalMessages(long messages) {
        return toBuilder().flushIntervalMessages(messages).build();
    }

    public LogConfig withFlushIntervalMs(long ms) {
        return toBuilder().flushIntervalMs(ms).build();
    }

    public LogConfig withCompressionType(BrokerCompressionType type) {
        return toBuilder().compressionType(type).build();
    }

    public LogConfig withTimestampBounds(long beforeMaxMs, long afterMaxMs) {
        return toBuilder().timestampBeforeMaxMs(beforeMaxMs).timestampAfterMaxMs(afterMaxMs).build();
    }

    public LogConfig withCompacted(boolean compacted) {
        return toBuilder().compacted(compacted).build();
    }

    public LogConfig withSegmentJitterMs(long jitterMs) {
        return toBuilder().segmentJitterMs(jitterMs).build();
    }

    public LogConfig withCompaction(long deleteRetentionMs, long minCompactionLagMs, double minCleanableDirtyRatio) {
        return toBuilder().compacted(true).deleteRetentionMs(deleteRetentionMs).minCompactionLagMs(minCompactionLagMs)
                .minCleanableDirtyRatio(minCleanableDirtyRatio).build();
    }

    public LogConfig withFileDeleteDelayMs(long ms) {
        return toBuilder().fileDeleteDelayMs(ms).build();
    }

    /** A segment's roll jitter, drawn when it is made: at random below segment.jitter.ms and segment.ms, as Kafka's. */
    long randomSegmentJitterMs() {
        return segmentJitterMs == 0 ? 0 : ThreadLocalRandom.current().nextLong(Math.min(segmentJitterMs, segmentMs));
    }

    /** A config by name, Kafka's defaults for every value not set; the one place that lists all of them. */
    public static final class Builder {
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private long segmentMs = DEFAULT_SEGMENT_MS;
        private long retentionMs = DEFAULT_RETENTION_MS;
        private long retentionBytes = DEFAULT_RETENTION_BYTES;
        private boolean logAppendTime;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int indexIntervalBytes = DEFAULT_INDEX_INTERVAL_BYTES;
        private int segmentIndexBytes = DEFAULT_SEGMENT_INDEX_BYTES;
        private long flushIntervalMessages = Long.MAX_VALUE;
        private long flushIntervalMs = Long.MAX_VALUE;
        private BrokerCompressionType compressionType = BrokerCompressionType.PRODUCER;
        private long timestampBeforeMaxMs = DEFAULT_TIMESTAMP_BEFORE_MAX_MS;
        private long timestampAfterMaxMs = DEFAULT_TIMESTAMP_AFTER_MAX_MS;
        private boolean compacted;
        private long segmentJitterMs;
        private long deleteRetentionMs = DEFAULT_DELETE_RETENTION_MS;
        private long minCompactionLagMs;
        private long maxCompactionLagMs = Long.MAX_VALUE;
        private double minCleanableDirtyRatio = DEFAULT_MIN_CLEANABLE_DIRTY_RATIO;
        private long fileDeleteDelayMs = DEFAULT_FILE_DELETE_DELAY_MS;

        public Builder() {
        }

        private Builder(LogConfig config) {
            segmentBytes = config.segmentBytes;
            segmentMs = config.segmentMs;
            retentionMs = config.retentionMs;
            retentionBytes = config.retentionBytes;
            logAppendTime = config.logAppendTime;
            maxMessageBytes = config.maxMessageBytes;
            indexIntervalBytes = config.indexIntervalBytes;
            segmentIndexBytes = config.segmentIndexBytes;
            flushIntervalMessages = config.flushIntervalMessages;
            flushIntervalMs = config.flushIntervalMs;
            compressionType = config.compressionType;
            timestampBeforeMaxMs = config.timestampBeforeMaxMs;
            timestampAfterMaxMs = config.timestampAfterMaxMs;
            compacted = config.compacted;
            segmentJitterMs = config.segmentJitterMs;
            deleteRetentionMs = config.deleteRetentionMs;
            minCompactionLagMs = config.minCompactionLagMs;
            maxCompactionLagMs = config.maxCompactionLagMs;
            minCleanableDirtyRatio = config.minCleanableDirtyRatio;
            fileDeleteDelayMs = config.fileDeleteDelayMs;
        }

        public Builder segmentBytes(int value) {
            segmentBytes = value;
            return this;
        }

        public Builder segmentMs(long value) {
            segmentMs = value;
            return this;
        }

        public Builder retentionMs(long value) {
            retentionMs = value;
            return this;
        }

        public Builder retentionBytes(long value) {
            retentionBytes = value;
            return this;
        }

        public Builder logAppendTime(boolean value) {
            logAppendTime = value;
            return this;
        }

        public Builder maxMessageBytes(int value) {
            maxMessageBytes = value;
            return this;
        }

        public Builder indexIntervalBytes(int value) {
            indexIntervalBytes = value;
            return this;
        }

        public Builder segmentIndexBytes(int value) {
            segmentIndexBytes = value;
            return this;
        }

        public Builder flushIntervalMessages(long value) {
            flushIntervalMessages = value;
            return this;
        }

        public Builder flushIntervalMs(long value) {
            flushIntervalMs = value;
            return this;
        }

        public Builder compressionType(BrokerCompressionType value) {
            compressionType = value;
            return this;
        }

        public Builder timestampBeforeMaxMs(long value) {
            timestampBeforeMaxMs = value;
            return this;
        }

        public Builder timestampAfterMaxMs(long value) {
            timestampAfterMaxMs = value;
            return this;
        }

        public Builder compacted(boolean value) {
            compacted = value;
            return this;
        }

        public Builder segmentJitterMs(long value) {
            segmentJitterMs = value;
            return this;
        }

        public Builder deleteRetentionMs(long value) {
            deleteRetentionMs = value;
            return this;
        }

        public Builder minCompactionLagMs(long value) {
            minCompactionLagMs = value;
            return this;
        }

        public Builder maxCompactionLagMs(long value) {
            maxCompactionLagMs = value;
            return this;
        }

        public Builder minCleanableDirtyRatio(double value) {
            minCleanableDirtyRatio = value;
            return this;
        }

        public Builder fileDeleteDelayMs(long value) {
            fileDeleteDelayMs = value;
            return this;
        }

        public LogConfig build() {
            return new LogConfig(segmentBytes, segmentMs, retentionMs, retentionBytes, logAppendTime, maxMessageBytes,
                    indexIntervalBytes, segmentIndexBytes, flushIntervalMessages, flushIntervalMs, compressionType,
                    timestampBeforeMaxMs, timestampAfterMaxMs, compacted, segmentJitterMs, deleteRetentionMs,
                    minCompactionLagMs, maxCompactionLagMs, minCleanableDirtyRatio, fileDeleteDelayMs);
        }
    }
}
