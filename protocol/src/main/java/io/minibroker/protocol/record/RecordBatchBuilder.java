package io.minibroker.protocol.record;

import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds one magic 2 record batch, e.g. for control markers or a client-side produce:
 *
 * <pre>{@code
 * ByteBuf batch = new RecordBatchBuilder(alloc, CompressionType.NONE, baseOffset, firstTimestamp)
 *     .append(firstTimestamp, key, value, List.of())
 *     .build();
 * }</pre>
 * Records are encoded as they are appended; {@link #build()} compresses them if asked, writes the header
 * and CRC, and hands over the buffer. The builder must not be used afterwards.
 */
public final class RecordBatchBuilder {
    private final ByteBufAllocator alloc;
    private final CompressionType compression;
    private final long baseOffset;
    private final long baseTimestamp;
    private final ByteBuf records;
    private long producerId = -1;
    private short producerEpoch = -1;
    private int baseSequence = -1;
    private int partitionLeaderEpoch = -1;
    private boolean transactional;
    private boolean control;
    private boolean logAppendTime;
    private boolean deleteHorizon;
    private int count;
    /** The offset delta the next record gets unless told otherwise: one past the last record's. */
    private int nextOffsetDelta;
    /** A last offset delta to keep in the header even if the records end before it; -1 for none. */
    private int lastOffsetDelta = -1;
    private long maxTimestamp = -1;
    private boolean built;

    public RecordBatchBuilder(ByteBufAllocator alloc, CompressionType compression, long baseOffset, long baseTimestamp) {
        this.alloc = alloc;
        this.compression = compression;
        this.baseOffset = baseOffset;
        this.baseTimestamp = baseTimestamp;
        // The records are copied into the batch (compressed or not) by build(); until then they are plain heap
        // memory, not the allocator's, so a builder dropped before build() (an append that threw) leaks nothing.
        this.records = Unpooled.buffer();
    }

    public RecordBatchBuilder producer(long id, short epoch, int baseSequence) {
        this.producerId = id;
        this.producerEpoch = epoch;
        this.baseSequence = baseSequence;
        return this;
    }

    public RecordBatchBuilder partitionLeaderEpoch(int epoch) {
        this.partitionLeaderEpoch = epoch;
        return this;
    }

    public RecordBatchBuilder transactional(boolean transactional) {
        this.transactional = transactional;
        return this;
    }

    public RecordBatchBuilder control(boolean control) {
        this.control = control;
        return this;
    }

    public RecordBatchBuilder logAppendTime(boolean logAppendTime) {
        this.logAppendTime = logAppendTime;
        return this;
    }

    /**
     * Marks the base timestamp given to the constructor as the batch's delete horizon (KIP-534): how a log cleaner
     * rewrites a transaction marker it will drop once that time has passed. Records keep their own timestamps.
     */
    public RecordBatchBuilder deleteHorizon(boolean deleteHorizon) {
        this.deleteHorizon = deleteHorizon;
        return this;
    }

    /** Appends the next record; offsets are consecutive from the base offset. Key and value may be null. */
    public RecordBatchBuilder append(long timestamp, byte[] key, byte[] value, List<Header> headers) {
        return append(nextOffsetDelta, timestamp, key, value, headers);
    }

    /**
     * Appends a record at {@code offsetDelta} from the base offset, past the previous record's: how a batch is
     * rewritten with some of its records left out (compaction), the others keeping their offsets.
     */
    public RecordBatchBuilder append(int offsetDelta, long timestamp, byte[] key, byte[] value, List<Header> headers) {
        if (offsetDelta < nextOffsetDelta) {
            throw new IllegalArgumentException("offset delta " + offsetDelta + " is not past the previous record's");
        }
        long timestampDelta = timestamp - baseTimestamp;
        int bodySize = 1 + Wire.sizeOfVarlong(timestampDelta) + Wire.sizeOfVarint(offsetDelta)
                + sizeOfBytes(key) + sizeOfBytes(value) + Wire.sizeOfVarint(headers.size());
        for (Header h : headers) {
            int keyLength = ByteBufUtil.utf8Bytes(h.key());
            bodySize += Wire.sizeOfVarint(keyLength) + keyLength
                    + (h.value() == null ? 1 : Wire.sizeOfVarint(h.value().readableBytes()) + h.value().readableBytes());
        }
        Wire.writeVarint(records, bodySize);
        records.writeByte(0);
        Wire.writeVarlong(records, timestampDelta);
        Wire.writeVarint(records, offsetDelta);
        writeBytes(key);
        writeBytes(value);
        Wire.writeVarint(records, headers.size());
        for (Header h : headers) {
            Wire.writeVarint(records, ByteBufUtil.utf8Bytes(h.key()));
            records.writeCharSequence(h.key(), StandardCharsets.UTF_8);
            if (h.value() == null) {
                Wire.writeVarint(records, -1);
            } else {
                Wire.writeVarint(records, h.value().readableBytes());
                records.writeBytes(h.value(), h.value().readerIndex(), h.value().readableBytes());
            }
        }
        count++;
        nextOffsetDelta = offsetDelta + 1;
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        return this;
    }

    /**
     * Keeps the header's last offset delta at {@code delta} even if the records end before it: a rewritten batch
     * whose last records were left out still spans its offsets, as Kafka's cleaner keeps them, so a producer's
     * sequence range read from it stays whole.
     */
    public RecordBatchBuilder lastOffsetDelta(int delta) {
        this.lastOffsetDelta = delta;
        return this;
    }

    private static int sizeOfBytes(byte[] bytes) {
        return bytes == null ? 1 : Wire.sizeOfVarint(bytes.length) + bytes.length;
    }

    private void writeBytes(byte[] bytes) {
        if (bytes == null) {
            Wire.writeVarint(records, -1);
        } else {
            Wire.writeVarint(records, bytes.length);
            records.writeBytes(bytes);
        }
    }

    /** The finished batch; the caller owns (and releases) the returned buffer. */
    public ByteBuf build() {
        if (built) {
            throw new IllegalStateException("batch already built");
        }
        built = true;
        ByteBuf out = alloc.buffer(RecordBatch.HEADER_BYTES + records.readableBytes());
        try {
            out.writeZero(RecordBatch.HEADER_BYTES);
            if (compression == CompressionType.NONE) {
                out.writeBytes(records);
            } else {
                Codecs.compress(compression, records, out);
            }
            writeHeader(out);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            records.release();
        }
    }

    private void writeHeader(ByteBuf out) {
        int attributes = compression.id();
        if (logAppendTime) {
            attributes |= RecordBatch.LOG_APPEND_TIME_FLAG;
        }
        if (transactional) {
            attributes |= RecordBatch.TRANSACTIONAL_FLAG;
        }
        if (control) {
            attributes |= RecordBatch.CONTROL_FLAG;
        }
        if (deleteHorizon) {
            attributes |= RecordBatch.DELETE_HORIZON_FLAG;
        }
        int at = out.readerIndex();
        out.setLong(at + RecordBatch.BASE_OFFSET, baseOffset);
        out.setInt(at + RecordBatch.BATCH_LENGTH, out.readableBytes() - RecordBatch.LOG_OVERHEAD);
        out.setInt(at + RecordBatch.PARTITION_LEADER_EPOCH, partitionLeaderEpoch);
        out.setByte(at + RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC);
        out.setShort(at + RecordBatch.ATTRIBUTES, attributes);
        out.setInt(at + RecordBatch.LAST_OFFSET_DELTA, Math.max(Math.max(nextOffsetDelta - 1, lastOffsetDelta), 0));
        out.setLong(at + RecordBatch.BASE_TIMESTAMP, baseTimestamp);
        out.setLong(at + RecordBatch.MAX_TIMESTAMP, maxTimestamp);
        out.setLong(at + RecordBatch.PRODUCER_ID, producerId);
        out.setShort(at + RecordBatch.PRODUCER_EPOCH, producerEpoch);
        out.setInt(at + RecordBatch.BASE_SEQUENCE, baseSequence);
        out.setInt(at + RecordBatch.RECORD_COUNT, count);
        out.setInt(at + RecordBatch.CRC, (int) RecordBatch.computeChecksum(out, at));
    }
}
