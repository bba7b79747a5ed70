package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.InflationBudget;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.SkimmedRecords;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * A leader's checks of a producer's batch before it is stored, as Kafka's LogValidator makes them, and its copy
 * in the topic's {@code compression.type} where that differs from the producer's codec. Each batch is
 * decompressed once, for both. It holds no lock: the log runs it before it takes its own, on the caller's thread
 * (a leader's event loop, a follower's fetcher). {@link #validateForAppend} makes an append's checks of the whole
 * set of batches (framing, CRCs, a leader's {@code max.message.bytes}; a follower's batches in order, otherwise the
 * leader's bytes unchecked; {@code segment.bytes}, before a producer's sequence is checked, as Kafka orders it) and
 * gives the {@link CheckedAppend} the log writes; an instance checks one leader's batch. One check runs at the write,
 * under the log's lock: {@link #fetchedBaseOffset} (against the log's end).
 *
 * <p>What is refused, with Kafka's errors:
 * <ul>
 *   <li>INVALID_RECORD: a leader's batch whose base offset is not 0 or whose last offset delta is negative, a
 *       record count that is not positive or disagrees with the offset range, a control batch,
 *       a producer id without a sequence, malformed records under a sound CRC, a record without a key in a
 *       compacted topic. Stricter than Kafka: records whose offsets do not run from the batch's base offset one
 *       by one (Kafka rebuilds such a compressed batch and does not look at an uncompressed one; the Java client,
 *       librdkafka and kafkajs all write them one by one).</li>
 *   <li>INVALID_TIMESTAMP: a CreateTime record stamped more than {@code message.timestamp.after.max.ms} ahead of
 *       the broker's clock or {@code message.timestamp.before.max.ms} behind it (one without a timestamp passes);
 *       a batch the producer flagged LogAppendTime, unless the topic is CreateTime and its records have
 *       timestamps: then, as in Kafka, it is taken as CreateTime.</li>
 * </ul>
 * The last two are a record's faults, not the batch's: every record is checked and the refusal, a
 * {@link RecordValidationException}, names each bad one by its index, as Kafka's RecordErrors do. A CreateTime header whose max timestamp (or flag) disagrees with its records gets theirs, in place, as Kafka
 * sets it.
 */
public final class LogValidator {

    private static final Logger LOG = LoggerFactory.getLogger(LogValidator.class);

    /**
     * Heap for the decompressed records of batches being validated, shared by every partition and thread of the
     * JVM: a quarter of the heap, and never less than one batch's limit. Without it, each event loop could inflate
     * a batch into its own buffer of up to that limit at once (a few KB of zstd can announce a GiB), and together
     * they could exhaust the heap.
     */
    static final InflationBudget INFLATION = new InflationBudget(Math.max(RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES,
            Runtime.getRuntime().maxMemory() / 4));

    /** The decompression budget every validation draws on: what the broker's memory gauges read. */
    public static InflationBudget inflationBudget() {
        return INFLATION;
    }

    private final TopicPartition topicPartition;
    private final LogConfig config;
    private final boolean createTime;
    private final long earliestTimestamp;
    private final long latestTimestamp;

    LogValidator(TopicPartition topicPartition, LogConfig config, long nowMs) {
        this.topicPartition = topicPartition;
        this.config = config;
        this.createTime = !config.logAppendTime();
        this.earliestTimestamp = saturatedSubtract(nowMs, config.timestampBeforeMaxMs());
        this.latestTimestamp = saturatedAdd(nowMs, config.timestampAfterMaxMs());
    }

    /**
     * An append's checks of a set of batches, without the log's lock: framing, a leader's sizes
     * ({@code max.message.bytes}, of a converted copy too), CRCs, a follower's batches in order, and each batch of a leader's through a validator
     * ({@link #validate}), whose copies in the topic's codec make up the buffer to store if any batch needed one.
     * Offsets are assigned at the write, under the lock.
     *
     * @throws LogException the partition's error if they are refused
     */
    static CheckedAppend validateForAppend(PartitionLog log, ByteBuf records, LogConfig config, boolean asLeader,
                                           long now) {
        TopicPartition topicPartition = log.topicPartition();
        LogValidator validator = asLeader ? new LogValidator(topicPartition, config, now) : null;
        ByteBuf converted = null; // made when the first batch is stored in another codec
        int incomingBytes = 0;
        int totalBytes = 0;
        long offsetCount = 0;
        long recordCount = 0;
        long maxTimestamp = -1;
        long lastOffset = -1;
        try {
            RecordBatches batches = RecordBatches.of(records);
            while (batches.hasNext()) {
                RecordBatch batch = batches.next();
                if (asLeader && batch.baseOffset() != 0) { // Kafka's analyzeAndValidateRecords, for a client's
                    throw new LogException(Errors.INVALID_RECORD, "The baseOffset of the record batch in the append to "
                            + topicPartition + " should be 0, but it is " + batch.baseOffset());
                }
                // A follower stores what its leader accepted, though max.message.bytes was lowered since (Kafka's
                // appendAsFollower ignores record sizes); refusing it would stall the follower at that offset.
                if (asLeader && batch.sizeInBytes() > config.maxMessageBytes()) {
                    throw new LogException(Errors.MESSAGE_TOO_LARGE, "batch of " + batch.sizeInBytes()
                            + " bytes exceeds max.message.bytes " + config.maxMessageBytes() + " in " + topicPartition);
                }
                batch.ensureValid();
                if (batch.lastOffsetDelta() < 0) { // a client's is Kafka's LogValidator.validateBatch's refusal
                    throw new LogException(asLeader ? Errors.INVALID_RECORD : Errors.CORRUPT_MESSAGE,
                            "Batch has an invalid offset range: [" + batch.baseOffset() + ", " + batch.lastOffset()
                                    + "] in topic partition " + topicPartition + ".");
                }
                if (!asLeader && batch.baseOffset() <= lastOffset) {
                    throw new LogException(Errors.CORRUPT_MESSAGE, "fetched batches of " + topicPartition
                            + " out of order: " + batch.baseOffset() + " after " + lastOffset);
                }
                lastOffset = batch.lastOffset();
                ByteBuf copy = validator == null ? null : validator.validate(batch);
                int storedBytes = copy != null ? copy.readableBytes() : batch.sizeInBytes();
                if (copy != null) {
                    try {
                        if (copy.readableBytes() > config.maxMessageBytes()) { // Kafka re-checks a converted batch
                            throw new LogException(Errors.MESSAGE_TOO_LARGE, "batch of " + copy.readableBytes()
                                    + " bytes in compression.type " + config.compressionType().configName()
                                    + " exceeds max.message.bytes " + config.maxMessageBytes() + " in "
                                    + topicPartition);
                        }
                        if (converted == null && incomingBytes == 0) {
                            converted = copy; // the first batch (a produce's only one): its copy is the buffer
                            copy = null;
                        } else {
                            if (converted == null) {
                                converted = ByteBufAllocator.DEFAULT.heapBuffer(records.readableBytes());
                                converted.writeBytes(records, records.readerIndex(), incomingBytes); // those before
                            }
                            converted.writeBytes(copy);
                        }
                    } finally {
                        if (copy != null) {
                            copy.release();
                        }
                    }
                } else if (converted != null) {
                    converted.writeBytes(batch.slice());
                }
                incomingBytes += batch.sizeInBytes();
                totalBytes += storedBytes;
                offsetCount += batch.lastOffsetDelta() + 1L;
                recordCount += batch.recordCount();
                maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
            }
            if (batches.trailingBytes() != 0 && asLeader) {
                // A fetch response may end in a partial batch (Kafka cuts at max bytes): a follower drops it.
                throw new LogException(Errors.CORRUPT_MESSAGE, batches.trailingBytes() + " bytes after the last batch");
            }
            if (offsetCount == 0) {
                throw new LogException(Errors.INVALID_RECORD, "no record batch to append to " + topicPartition);
            }
            // Before the producer's state is checked at the write, as Kafka checks segment.bytes before it.
            checkFitsSegment(totalBytes, config, topicPartition);
        } catch (ProtocolException | LogException e) {
            if (converted != null) {
                converted.release();
            }
            throw e instanceof ProtocolException protocol ? new LogException(protocol.error(), e.getMessage(), e)
                    : (LogException) e;
        }
        return new CheckedAppend(log, converted != null ? converted : records, converted != null, totalBytes,
                offsetCount, recordCount, maxTimestamp, lastOffset, config, now);
    }

    /** The batches as stored fit in a segment ({@code segment.bytes}), or RECORD_LIST_TOO_LARGE, leader or not. */
    private static void checkFitsSegment(int totalBytes, LogConfig config, TopicPartition topicPartition) {
        int segmentBytes = config.segmentBytes();
        if (totalBytes > segmentBytes) {
            throw new LogException(Errors.RECORD_LIST_TOO_LARGE, totalBytes + " bytes of batches exceed "
                    + "segment.bytes " + segmentBytes + " in " + topicPartition);
        }
    }

    /**
     * Under the log's lock, before a follower's write: the base offset of its first fetched batch, which must not be
     * before the log's end (OFFSET_OUT_OF_RANGE). A leader's cleaned section has gaps where whole batches were
     * compacted away, as Kafka's: a follower's batches may start past its log end, and run with gaps between them.
     */
    static long fetchedBaseOffset(CheckedAppend incoming, long logEndOffset, TopicPartition topicPartition) {
        long fetchedBase = RecordBatches.of(incoming.batches).next().baseOffset();
        if (fetchedBase < logEndOffset) {
            throw new LogException(Errors.OFFSET_OUT_OF_RANGE, "fetched batches start at " + fetchedBase
                    + ", before the end of " + topicPartition + " (" + logEndOffset + ")");
        }
        return fetchedBase;
    }

    /**
     * Checks a batch whose framing and CRC are sound; returns null to store it as it is, or its copy in the topic's
     * codec, which the caller releases. A compressed batch stored as it came is read through a piece at a time
     * ({@link RecordBatch#skimmedRecords(ByteBufAllocator, int)}); one stored in another codec is decompressed
     * whole, once, for both the checks and the copy, within the shared {@link #INFLATION} budget; an uncompressed
     * one is read in place.
     */
    ByteBuf validate(RecordBatch batch) {
        validateHeader(batch);
        CompressionType target = config.compressionType().targetFor(batch.compression());
        if (target == batch.compression() && batch.compression() != CompressionType.NONE) {
            validateRecords(batch, null);
            return null;
        }
        ByteBuf plain;
        try {
            plain = batch.plainRecords(INFLATION, RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES);
        } catch (ProtocolException e) { // a payload that does not decompress
            throw new LogException(Errors.INVALID_RECORD, e.getMessage() + " in " + topicPartition, e);
        }
        try {
            validateRecords(batch, plain);
            return target == batch.compression() ? null : recompressed(batch, target, plain);
        } finally {
            plain.release();
        }
    }

    private void validateHeader(RecordBatch batch) {
        int count = batch.recordCount();
        if (count <= 0 || count != batch.lastOffsetDelta() + 1) {
            throw new LogException(Errors.INVALID_RECORD, "Inconsistent batch offset range [0, "
                    + batch.lastOffsetDelta() + "] and count of records " + count + " in topic partition "
                    + topicPartition);
        }
        if (batch.isControl()) {
            throw new LogException(Errors.INVALID_RECORD,
                    "Clients are not allowed to write control records in topic partition " + topicPartition);
        }
        if (batch.producerId() >= 0 && batch.baseSequence() < 0) {
            throw new LogException(Errors.INVALID_RECORD, "Invalid sequence number " + batch.baseSequence()
                    + " in record batch with producerId " + batch.producerId() + " in topic partition "
                    + topicPartition);
        }
    }

    /**
     * Checks every record, as Kafka does, rather than stopping at the first bad one: the refusal names each bad
     * record (one reason each, the key's before the timestamp's) so the producer can tell them from the rest. The
     * records are read in place, their keys, values and headers skipped, allocating nothing per record: from
     * {@code plain} (the batch's records decompressed, or its body), or, when it is null, from the compressed
     * batch a piece at a time.
     */
    private void validateRecords(RecordBatch batch, ByteBuf plain) {
        RecordChecks checks = new RecordChecks(batch);
        try (SkimmedRecords records = plain != null ? batch.skimmedRecords(plain)
                : batch.skimmedRecords(INFLATION, RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES)) {
            checks.checkAll(records);
        } catch (ProtocolException e) { // a payload that does not decompress, or malformed records after a sound
            // CRC: Kafka's InvalidRecordException
            throw new LogException(Errors.INVALID_RECORD, e.getMessage() + " in " + topicPartition, e);
        }
        checks.finish();
    }

    /** The checks of one batch's records, in order, and what they found. */
    private final class RecordChecks {
        private final RecordBatch batch;
        private final boolean flaggedLogAppendTime;
        private long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        private long expectedOffset;
        private List<RecordValidationException.RecordError> recordErrors;
        private boolean anyTimestampError;
        private int batchIndex;

        RecordChecks(RecordBatch batch) {
            this.batch = batch;
            this.flaggedLogAppendTime = batch.isLogAppendTime();
            this.expectedOffset = batch.baseOffset();
        }

        /** Every record the reader has left. */
        void checkAll(SkimmedRecords records) {
            while (records.hasNext()) {
                records.readNext();
                check(records.offset(), records.timestamp(), records.keyLength(), records.valueLength());
            }
        }

        /** One record; {@code keyLength} and {@code valueLength} are -1 for null. */
        void check(long offset, long timestamp, int keyLength, int valueLength) {
            if (offset != expectedOffset++) {
                throw new LogException(Errors.INVALID_RECORD, "record offset delta " + (offset - batch.baseOffset())
                        + " where " + (expectedOffset - 1 - batch.baseOffset()) + " was due in a batch for "
                        + topicPartition);
            }
            String keyError = keyError(keyLength);
            String timestampError = keyError == null
                    ? timestampError(offset, timestamp, keyLength, valueLength, flaggedLogAppendTime) : null;
            if (keyError != null || timestampError != null) {
                if (recordErrors == null) {
                    recordErrors = new ArrayList<>(1);
                }
                recordErrors.add(new RecordValidationException.RecordError(batchIndex,
                        keyError != null ? keyError : timestampError));
                anyTimestampError |= timestampError != null;
            }
            maxTimestamp = Math.max(maxTimestamp, timestamp);
            batchIndex++;
        }

        /** After the last record: the refusal, if any record was bad, or the header's timestamp set right. */
        void finish() {
            if (recordErrors != null) {
                throw RecordValidationException.of(recordErrors, anyTimestampError);
            }
            if (createTime && (flaggedLogAppendTime || maxTimestamp != batch.maxTimestamp())) {
                batch.setCreateTime(maxTimestamp);
            }
        }
    }

    private String keyError(int keyLength) {
        return config.compacted() && keyLength < 0
                ? "Compacted topic cannot accept message without key in topic partition " + topicPartition
                : null;
    }

    /**
     * A CreateTime topic checks a stamped record against its bounds; otherwise (a LogAppendTime topic, or a record
     * without a timestamp) a batch the producer flagged LogAppendTime is refused, as Kafka refuses it.
     */
    private String timestampError(long offset, long timestamp, int keyLength, int valueLength,
                                  boolean flaggedLogAppendTime) {
        if (createTime && timestamp != RecordBatch.NO_TIMESTAMP) {
            return timestamp < earliestTimestamp || timestamp > latestTimestamp
                    ? "Timestamp " + timestamp + " of message with offset " + offset
                            + " is out of range. The timestamp should be within [" + earliestTimestamp + ", "
                            + latestTimestamp + "]"
                    : null;
        }
        // A record as Kafka's messages describe one (its DefaultRecord's form).
        return flaggedLogAppendTime
                ? "Invalid timestamp type in message DefaultRecord(offset=" + offset + ", timestamp=" + timestamp
                        + ", key=" + Math.max(0, keyLength) + " bytes, value=" + Math.max(0, valueLength)
                        + " bytes). Producer should not set timestamp type to LogAppendTime."
                : null;
    }

    private ByteBuf recompressed(RecordBatch batch, CompressionType target, ByteBuf plain) {
        try {
            return batch.recompressed(ByteBufAllocator.DEFAULT, target, plain);
        } catch (RuntimeException e) { // the codec library failed: this partition's answer, not a crash
            LOG.error("Could not recompress a batch of {} to {}", topicPartition, target, e);
            throw new LogException(Errors.UNKNOWN_SERVER_ERROR, "could not store a batch of " + topicPartition
                    + " in compression.type " + config.compressionType().configName() + ": " + e, e);
        }
    }

    private static long saturatedSubtract(long a, long b) {
        long difference = a - b;
        return ((a ^ b) & (a ^ difference)) < 0 ? Long.MIN_VALUE : difference;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
