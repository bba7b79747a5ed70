package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A zero-copy view of one record batch (magic 2) over a {@link ByteBuf}. Fields are read at fixed
 * positions on demand; nothing is copied unless the records are compressed.
 *
 * <pre>
 *  offset  size  field
 *       0     8  base offset
 *       8     4  batch length (bytes after this field)
 *      12     4  partition leader epoch
 *      16     1  magic (2)
 *      17     4  CRC-32C of everything from attributes to the end
 *      21     2  attributes: bits 0-2 compression, 3 log-append time, 4 transactional, 5 control,
 *                6 delete horizon (KIP-534: the base timestamp is when a cleaner may drop the batch's markers)
 *      23     4  last offset delta
 *      27     8  base timestamp
 *      35     8  max timestamp
 *      43     8  producer id
 *      51     2  producer epoch
 *      53     4  base sequence
 *      57     4  record count
 *      61        records
 * </pre>
 * The CRC leaves out the base offset and partition leader epoch so that a broker can assign both
 * without recomputing it. A batch of three records at offsets 100-102 has base offset 100 and last offset
 * delta 2.
 */
public final class RecordBatch {
    public static final byte MAGIC = 2;
    public static final int HEADER_BYTES = 61;
    /** Base offset and batch length, which precede what the batch length counts. */
    public static final int LOG_OVERHEAD = 12;
    /** The timestamp of a record that carries none (Kafka's RecordBatch.NO_TIMESTAMP). */
    public static final long NO_TIMESTAMP = -1;
    /** A generous ceiling for one batch's decompressed records; a guard against decompression bombs. */
    public static final int DEFAULT_MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;

    static final int BASE_OFFSET = 0;
    static final int BATCH_LENGTH = 8;
    static final int PARTITION_LEADER_EPOCH = 12;
    static final int MAGIC_OFFSET = 16;
    static final int CRC = 17;
    static final int ATTRIBUTES = 21;
    static final int LAST_OFFSET_DELTA = 23;
    static final int BASE_TIMESTAMP = 27;
    static final int MAX_TIMESTAMP = 35;
    static final int PRODUCER_ID = 43;
    static final int PRODUCER_EPOCH = 51;
    static final int BASE_SEQUENCE = 53;
    static final int RECORD_COUNT = 57;

    static final int COMPRESSION_MASK = 0x07;
    static final int LOG_APPEND_TIME_FLAG = 0x08;
    static final int TRANSACTIONAL_FLAG = 0x10;
    static final int CONTROL_FLAG = 0x20;
    static final int DELETE_HORIZON_FLAG = 0x40;

    private final ByteBuf buf;
    private final int start;

    private RecordBatch(ByteBuf buf) {
        this.buf = buf;
        this.start = buf.readerIndex();
    }

    /**
     * Views the batch at {@code buf}'s reader index, which must hold it whole. Only the framing is
     * checked here; call {@link #ensureValid()} to check the CRC.
     */
    public static RecordBatch wrap(ByteBuf buf) {
        if (buf.readableBytes() < LOG_OVERHEAD + 5) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "record batch of " + buf.readableBytes() + " bytes is truncated");
        }
        int at = buf.readerIndex();
        byte magic = buf.getByte(at + MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new ProtocolException(Errors.INVALID_RECORD,
                    "record batches with magic " + magic + " are not supported; only magic 2 is");
        }
        int length = buf.getInt(at + BATCH_LENGTH);
        if (length < HEADER_BYTES - LOG_OVERHEAD || length > buf.readableBytes() - LOG_OVERHEAD) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE,
                    "record batch length " + length + " does not fit " + buf.readableBytes() + " bytes");
        }
        return new RecordBatch(buf);
    }

    /** The whole batch, from base offset to its last record, as a slice of the underlying buffer. */
    public ByteBuf slice() {
        return buf.slice(start, sizeInBytes());
    }

    public int sizeInBytes() {
        return LOG_OVERHEAD + buf.getInt(start + BATCH_LENGTH);
    }

    public long baseOffset() {
        return buf.getLong(start + BASE_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    public int partitionLeaderEpoch() {
        return buf.getInt(start + PARTITION_LEADER_EPOCH);
    }

    public byte magic() {
        return buf.getByte(start + MAGIC_OFFSET);
    }

    public long checksum() {
        return buf.getUnsignedInt(start + CRC);
    }

    public short attributes() {
        return buf.getShort(start + ATTRIBUTES);
    }

    public CompressionType compression() {
        return CompressionType.forId(attributes() & COMPRESSION_MASK);
    }

    public boolean isLogAppendTime() {
        return (attributes() & LOG_APPEND_TIME_FLAG) != 0;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG) != 0;
    }

    /**
     * Whether the first batch in {@code records} is a well-formed magic 2 batch marked transactional, read in place
     * without wrapping it: for a check every produce makes (Kafka's hasTransactionalRecords). A batch too short or of
     * another magic is not, and is left to the append to refuse.
     */
    public static boolean isTransactional(ByteBuf records) {
        int at = records.readerIndex();
        return records.readableBytes() >= ATTRIBUTES + 2 && records.getByte(at + MAGIC_OFFSET) == MAGIC
                && (records.getShort(at + ATTRIBUTES) & TRANSACTIONAL_FLAG) != 0;
    }

    public boolean isControl() {
        return (attributes() & CONTROL_FLAG) != 0;
    }

    public int lastOffsetDelta() {
        return buf.getInt(start + LAST_OFFSET_DELTA);
    }

    public long baseTimestamp() {
        return buf.getLong(start + BASE_TIMESTAMP);
    }

    public long maxTimestamp() {
        return buf.getLong(start + MAX_TIMESTAMP);
    }

    /**
     * When a log cleaner may drop this batch (KIP-534: a cleaner that found a transaction marker removable stamps it
     * with now plus {@code delete.retention.ms} in the base timestamp and sets attribute bit 6), or
     * {@link #NO_TIMESTAMP} if no horizon is set.
     */
    public long deleteHorizonMs() {
        return (attributes() & DELETE_HORIZON_FLAG) != 0 ? baseTimestamp() : NO_TIMESTAMP;
    }

    public long producerId() {
        return buf.getLong(start + PRODUCER_ID);
    }

    public short producerEpoch() {
        return buf.getShort(start + PRODUCER_EPOCH);
    }

    public int baseSequence() {
        return buf.getInt(start + BASE_SEQUENCE);
    }

    public int recordCount() {
        return buf.getInt(start + RECORD_COUNT);
    }

    /** The CRC-32C of attributes through the last record, as it should be stored. */
    public long computeChecksum() {
        return computeChecksum(buf, start);
    }

    static long computeChecksum(ByteBuf buf, int start) {
        int from = start + ATTRIBUTES;
        int length = LOG_OVERHEAD + buf.getInt(start + BATCH_LENGTH) - ATTRIBUTES;
        CRC32C crc = new CRC32C();
        if (buf.nioBufferCount() == 1) {
            crc.update(buf.nioBuffer(from, length));
        } else {
            for (ByteBuffer part : buf.nioBuffers(from, length)) {
                crc.update(part);
            }
        }
        return crc.getValue();
    }

    public boolean isValid() {
        return checksum() == computeChecksum();
    }

    public void ensureValid() {
        long stored = checksum();
        long computed = computeChecksum();
        if (stored != computed) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE,
                    "record batch at offset " + baseOffset() + " is corrupt: stored CRC " + stored + ", computed " + computed);
        }
    }

    /** Assigns the batch its offsets in place; the CRC does not cover the base offset and stays valid. */
    public void setBaseOffset(long baseOffset) {
        buf.setLong(start + BASE_OFFSET, baseOffset);
    }

    /** Stamps the leader epoch in place; not covered by the CRC either. */
    public void setPartitionLeaderEpoch(int epoch) {
        buf.setInt(start + PARTITION_LEADER_EPOCH, epoch);
    }

    /**
     * Switches the batch to log-append time: sets the timestamp-type bit and the max timestamp, which then
     * stands for every record's timestamp, and recomputes the CRC since both are covered by it.
     */
    public void setLogAppendTime(long timestamp) {
        buf.setShort(start + ATTRIBUTES, attributes() | LOG_APPEND_TIME_FLAG);
        buf.setLong(start + MAX_TIMESTAMP, timestamp);
        buf.setInt(start + CRC, (int) computeChecksum());
    }

    /**
     * Makes the batch CreateTime with this max timestamp, in place, for a batch whose header disagrees with its
     * records (the broker trusts the records, as Kafka's does); recomputes the CRC, which covers both.
     */
    public void setCreateTime(long maxTimestamp) {
        buf.setShort(start + ATTRIBUTES, attributes() & ~LOG_APPEND_TIME_FLAG);
        buf.setLong(start + MAX_TIMESTAMP, maxTimestamp);
        buf.setInt(start + CRC, (int) computeChecksum());
    }

    /** Iterates the records, decompressing with the default limit; close the iterator when done. */
    public RecordIterator records(ByteBufAllocator alloc) {
        return records(alloc, DEFAULT_MAX_DECOMPRESSED_BYTES);
    }

    public RecordIterator records(ByteBufAllocator alloc, int maxDecompressedBytes) {
        if (compression() == CompressionType.NONE) {
            return new RecordIterator(this, body(), false);
        }
        return new RecordIterator(this, decompressedBody(alloc, maxDecompressedBytes), true);
    }

    /**
     * The records, decompressed if the batch is compressed (an uncompressed batch's body, retained): one buffer the
     * caller releases, so that a caller that both checks the records and recompresses them
     * ({@link #skimmedRecords(ByteBuf)}, {@link #recompressed}) decompresses the batch once.
     */
    public ByteBuf plainRecords(ByteBufAllocator alloc, int maxDecompressedBytes) {
        return compression() == CompressionType.NONE ? body().retain() : decompressedBody(alloc, maxDecompressedBytes);
    }

    /**
     * The records of a compressed batch, read through once holding one decompressed piece at a time, their keys,
     * values and headers skipped ({@link SkimmedRecords}); the caller closes it. Each piece's buffer comes from
     * {@code alloc}.
     */
    public SkimmedRecords skimmedRecords(ByteBufAllocator alloc, int maxDecompressedBytes) {
        if (compression() == CompressionType.NONE) {
            throw new IllegalStateException("skimming is for compressed batches: " + this);
        }
        return new SkimmedRecords(this, Codecs.chunks(compression(), body()), alloc, maxDecompressedBytes);
    }

    /**
     * Reads through records taken from {@link #plainRecords} as {@link #skimmedRecords} reads a compressed batch,
     * allocating nothing per record; the caller keeps and releases them.
     */
    public SkimmedRecords skimmedRecords(ByteBuf plainRecords) {
        return new SkimmedRecords(this, plainRecords);
    }

    /**
     * A copy of this batch with its records, {@code plainRecords} from {@link #plainRecords}, compressed by
     * {@code target} instead (a topic's {@code compression.type}): the same records byte for byte, under the same
     * header but for the codec bits, the length and the CRC. The caller owns the returned buffer.
     */
    public ByteBuf recompressed(ByteBufAllocator alloc, CompressionType target, ByteBuf plainRecords) {
        ByteBuf plain = plainRecords.duplicate();
        ByteBuf out = null;
        try {
            out = alloc.buffer(HEADER_BYTES + plain.readableBytes());
            out.writeBytes(buf, start, HEADER_BYTES);
            if (target == CompressionType.NONE) {
                out.writeBytes(plain);
            } else {
                Codecs.compress(target, plain, out);
            }
            int at = out.readerIndex();
            out.setInt(at + BATCH_LENGTH, out.readableBytes() - LOG_OVERHEAD);
            out.setShort(at + ATTRIBUTES, (attributes() & ~COMPRESSION_MASK) | target.id());
            out.setInt(at + CRC, (int) computeChecksum(out, at));
            return out;
        } catch (RuntimeException e) {
            if (out != null) {
                out.release();
            }
            throw e;
        }
    }

    /**
     * This batch's header without any record (Kafka's empty batch): what a cleaner keeps of a batch whose records
     * are all superseded when the batch must still span its offsets. Offsets, timestamps, producer fields and the
     * flags stay; the count is 0 and the codec bits none, there being nothing to decompress. The caller owns the
     * returned buffer.
     */
    public ByteBuf emptyCopy(ByteBufAllocator alloc) {
        return emptyCopy(alloc, isTransactional());
    }

    /**
     * {@link #emptyCopy(ByteBufAllocator)}, with the transactional flag set only if {@code transactional}: a cleaner
     * keeps a completed transaction's emptied data batch only to span its offsets, and a transactional batch there
     * would open a transaction again for whoever rebuilds transactions from the log once its marker is gone.
     */
    public ByteBuf emptyCopy(ByteBufAllocator alloc, boolean transactional) {
        ByteBuf out = alloc.buffer(HEADER_BYTES);
        out.writeBytes(buf, start, HEADER_BYTES);
        out.setInt(BATCH_LENGTH, HEADER_BYTES - LOG_OVERHEAD);
        int attributes = attributes() & ~COMPRESSION_MASK;
        out.setShort(ATTRIBUTES, transactional ? attributes | TRANSACTIONAL_FLAG : attributes & ~TRANSACTIONAL_FLAG);
        out.setInt(RECORD_COUNT, 0);
        out.setInt(CRC, (int) computeChecksum(out, 0));
        return out;
    }

    /** The records as stored: compressed unless the codec is NONE. */
    private ByteBuf body() {
        return buf.slice(start + HEADER_BYTES, sizeInBytes() - HEADER_BYTES);
    }

    /** The records decompressed into a new buffer, which the caller releases. */
    private ByteBuf decompressedBody(ByteBufAllocator alloc, int maxDecompressedBytes) {
        ByteBuf body = body();
        ByteBuf plain = alloc.heapBuffer(Math.min(maxDecompressedBytes, Math.max(64, body.readableBytes() * 4)));
        try {
            Codecs.decompress(compression(), body, plain, maxDecompressedBytes);
        } catch (RuntimeException e) {
            plain.release();
            throw e;
        }
        return plain;
    }

    @Override
    public String toString() {
        return "RecordBatch(baseOffset=" + baseOffset() + ", lastOffset=" + lastOffset() + ", count=" + recordCount()
                + ", compression=" + (attributes() & COMPRESSION_MASK) + ", bytes=" + sizeInBytes() + ")";
    }
}
